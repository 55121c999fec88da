import type { Operation } from '../spec/operations.js'

/** One request the suite sent and the response it got: what every check reads. */
export interface Exchange {
  request: ExchangeRequest
  response: ExchangeResponse
  /** The operation of the document the request addressed, if any. */
  operation?: Operation
}

export interface ExchangeRequest {
  method: string
  url: string
  headers: Record<string, string>
  body?: string
}

export interface ExchangeResponse {
  status: number
  /** Lower-cased names. */
  headers: Record<string, string>
  text: string
  /** The parsed body when the media type is JSON (`application/json`, `application/problem+json`). */
  body?: unknown
}

/** `application/problem+json; charset=utf-8` → `application/problem+json`. */
export function mediaTypeOf(response: ExchangeResponse): string | undefined {
  return response.headers['content-type']?.split(';')[0]?.trim().toLowerCase()
}
