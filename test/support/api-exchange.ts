import type { User } from '../../src/domain/user.js'

/** A request as the tests write it: a token rather than a header, a body as a value. */
export interface ApiRequest {
  /** Default GET. */
  method?: string
  /** Path and query: `/api/users?limit=7`. */
  url: string
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string
  /** A string is sent as is; any other value as JSON, with `Content-Type: application/json` unless `headers` names one. */
  body?: unknown
  headers?: Record<string, string>
}

/** One request and its response, as the conformance check and the assertions read them. */
export interface ApiExchange<T = unknown> {
  request: { method: string; url: string }
  status: number
  /** Lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>
  text: string
  /** The parsed JSON body; `undefined` when the body is empty or not JSON. */
  body: T
}

export interface Problem {
  type: string
  title: string
  status: number
  code: string
  detail: string
  errors?: Array<{ in: string; path: string; message: string }>
}

export interface UserEnvelope {
  data: User
}

export interface UserList {
  data: User[]
  meta: { page: number; limit: number; total: number; totalPages: number }
}

/** The method, headers and payload to send for a request. */
export function toWireRequest(request: ApiRequest): {
  method: string
  headers: Record<string, string>
  payload?: string
} {
  const headers: Record<string, string> = {}
  if (request.token !== undefined) headers['authorization'] = `Bearer ${request.token}`
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value
  const method = (request.method ?? 'GET').toUpperCase()
  if (request.body === undefined) return { method, headers }
  if (typeof request.body === 'string') return { method, headers, payload: request.body }
  headers['content-type'] ??= 'application/json'
  return { method, headers, payload: JSON.stringify(request.body) }
}

export function toExchange<T>(
  request: ApiRequest,
  status: number,
  headers: Record<string, string>,
  text: string,
): ApiExchange<T> {
  const isJson = /json/i.test(headers['content-type'] ?? '')
  const body = (text !== '' && isJson ? JSON.parse(text) : undefined) as T
  return { request: { method: (request.method ?? 'GET').toUpperCase(), url: request.url }, status, headers, text, body }
}
