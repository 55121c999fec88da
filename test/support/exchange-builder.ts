import type { CheckContext, ResponseCheck } from '../../src/contract/client/check-exchange.js'
import type { Exchange } from '../../src/contract/client/exchange.js'
import { createOperationMatcher } from '../../src/contract/client/match-operation.js'
import { ResponseSchemas, type SuiteLayer } from '../../src/contract/client/response-schemas.js'
import { loadSpec } from '../../src/spec/load-spec.js'
import { listOperations, type Operation } from '../../src/spec/operations.js'

/** An exchange as a test writes it: the request and the response in one object. */
export interface ExchangeDraft {
  /** Default GET. */
  method?: string
  /** Path and query: `/api/users?limit=7`. */
  path: string
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string
  requestHeaders?: Record<string, string>
  requestBody?: string
  status: number
  /** Names in any case; stored lower-cased, as the client does. An undefined value is no header. */
  headers?: Record<string, string | undefined>
  /**
   * A body sent as JSON, with `application/json` (below 400) or `application/problem+json` (from 400)
   * unless `headers` name a Content-Type.
   */
  json?: unknown
  /** A body sent as is, with whatever Content-Type `headers` give. */
  text?: string
}

/** The operations of the kit's own document (openapi/users.yaml). */
export async function loadOperations(): Promise<Operation[]> {
  return listOperations((await loadSpec()).dereferenced)
}

/**
 * A hand-made exchange, with the operation matched as the contract client matches it and the body
 * parsed as it parses it.
 *
 * @example
 * buildExchange(operations, { path: '/api/users/me', token: 't', status: 200, json: { data: aUser() } })
 */
export function buildExchange(operations: Operation[], draft: ExchangeDraft): Exchange {
  const method = (draft.method ?? 'GET').toUpperCase()
  const url = `http://api.test${draft.path}`
  const requestHeaders: Record<string, string> = { ...draft.requestHeaders }
  if (draft.token !== undefined) requestHeaders.authorization = `Bearer ${draft.token}`
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(draft.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = value
  }
  let text = draft.text ?? ''
  if (draft.json !== undefined) {
    text = JSON.stringify(draft.json)
    headers['content-type'] ??= draft.status >= 400 ? 'application/problem+json' : 'application/json; charset=utf-8'
  }
  const exchange: Exchange = {
    request: {
      method,
      url,
      headers: requestHeaders,
      ...(draft.requestBody === undefined ? {} : { body: draft.requestBody }),
    },
    response: { status: draft.status, headers, text },
  }
  const operation = createOperationMatcher(operations)(method, new URL(url).pathname)
  if (operation) exchange.operation = operation
  if (/json/.test(headers['content-type'] ?? '') && text !== '') {
    try {
      exchange.response.body = JSON.parse(text)
    } catch {
      // Left undefined, as the client leaves it.
    }
  }
  return exchange
}

/** What the client hands every check, for a layer. */
export function checkContext(layer: SuiteLayer = 'all'): CheckContext {
  return { schemas: new ResponseSchemas(layer), layer }
}

/** Verifies an exchange with one check and a layer: the check's message, or undefined when it holds. */
export type CheckRun = (draft: ExchangeDraft, layer?: SuiteLayer) => string | undefined

/**
 * One check, ready to run on hand-made exchanges against the kit's own document.
 *
 * @example
 * const verify = await prepareCheck(statusIsDocumented)
 * expect(verify({ path: '/api/users/me', status: 418 })).toContain('Received: 418')
 */
export async function prepareCheck(check: ResponseCheck): Promise<CheckRun> {
  const operations = await loadOperations()
  const contexts = { all: checkContext('all'), core: checkContext('core') }
  return (draft, layer = 'all') => check.verify(buildExchange(operations, draft), contexts[layer])
}

/** A copy of a record without some keys: a body that lacks a property. */
export function omit(record: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key)))
}

/** A user as the document's User schema describes it. */
export function aUser(changes: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'usr_acmeownerqqqqqqqqqqq',
    email: 'olivia.owner@acme.example',
    name: 'Olivia Owner',
    role: 'CLIENT_OWNER',
    organizationId: 'org_acmeqqqqqqqqqqqqqqqq',
    status: 'ACTIVE',
    createdAt: '2024-01-08T09:00:00.000Z',
    updatedAt: '2024-01-08T09:00:00.000Z',
    ...changes,
  }
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
}

/** A problem of CONTRACT §5 (a 400 with one issue); `changes` override or add keys. */
export function aProblem(status: number, code: string, changes: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'about:blank',
    title: TITLES[status] ?? 'Error',
    status,
    code,
    detail: `A ${status} for the test.`,
    ...(status === 400 ? { errors: [{ in: 'query', path: '/limit', message: 'must be <= 100' }] } : {}),
    ...changes,
  }
}
