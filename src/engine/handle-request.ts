import type { UserStore } from '../domain/user-store.js'
import { AppError } from '../errors.js'
import type { RoutedOperation } from '../spec/operation-table.js'
import { authenticate } from './authenticate.js'
import type { EngineRequest, EngineResponse } from './engine-request.js'
import { OPERATION_HANDLERS, type OperationHandler } from './operation-handlers.js'
import { toAppError, toProblemResponse } from './problems.js'
import { assertBodySize, readJsonBody } from './read-json-body.js'
import { decodeSegments, isUnderApi, type Segment } from '../spec/path-templates.js'
import { createRouter, type RouteMatch } from './route-request.js'
import { delayAsAsked, failAsAsked, type SimulatedConditions } from './simulated-conditions.js'
import { createUserJson } from './user-json.js'
import { validateRequest } from './validate-request.js'
import { isHead } from '../http/methods.js'
import { splitTarget } from '../http/request-target.js'

export interface EngineOptions {
  /** The document's operations with their validators (DEFAULT_OPERATIONS, or compileOperations). */
  operations: RoutedOperation[]
  /** The current store: read at every request, so that a reset or an import takes effect at once. */
  store: () => UserStore
  conditions?: SimulatedConditions
  /** Told of every unexpected error (a 500), whose cause is never sent. */
  onUnexpectedError?: (error: unknown) => void
}

/** The users API, transport-free: a request in, a response out. */
export type Engine = (request: EngineRequest) => Promise<EngineResponse>

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

/**
 * The users API's rules in one function, in CONTRACT §3's order of checks. It imports no Fastify, no
 * MSW and no `node:` module: the server's node:http listener, the fetch handler and MSW all call it.
 *
 * @example
 * const engine = createEngine({ operations: DEFAULT_OPERATIONS, store: () => store })
 * const response = await engine({ method: 'GET', url: '/api/users/me', headers: { authorization: 'Bearer owner-token' } })
 */
export function createEngine(options: EngineOptions): Engine {
  const handlers = findHandlers(options.operations)
  const route = createRouter(options.operations)
  const conditions = options.conditions ?? {}
  const json = createUserJson()

  return async function handleRequest(request) {
    let role: string | undefined
    try {
      const { path, query } = splitTarget(request.url)
      const segments = decodeSegments(path)
      assertUnderApi(request.method, path, segments) //                    404 outside the users API
      let store = options.store()
      let caller = authenticate(request.headers['authorization'], store) // 401
      if (await delayAsAsked(request.headers['prefer'], conditions)) {
        // Prefer: delay, --latency. Requests answered during the wait may have changed, suspended or deleted
        // the caller, or reset the state: the request goes on as if it arrived now, its token read again (401).
        store = options.store()
        caller = authenticate(request.headers['authorization'], store)
      }
      role = caller.role
      const match: RouteMatch = route(request.method, segments) //        404, 405 with Allow
      failAsAsked(request.headers['prefer'], conditions, match.operation.errorStatuses) // Prefer: code, --fail-rate
      assertBodySize(request.body) //                                      413
      const body = match.operation.jsonBody ? readJsonBody(request.headers, request.body) : undefined // 415, 400
      const valid = validateRequest(match, new URLSearchParams(query), body) // 400
      const handler = handlers.get(match.operation.operationId) as OperationHandler
      const result = handler({ ...valid, store, caller, json }) //         404, 403, 409 (the domain), then the change
      return { ...withContentFor(request.method, answer(result.status, result.body)), role }
    } catch (error) {
      const appError = toAppError(error)
      reportUnexpected(appError, error, options.onUnexpectedError)
      return { ...withContentFor(request.method, toProblemResponse(appError)), role }
    }
  }
}

/** Every operation with a documented success has a handler, or the mock does not start. */
function findHandlers(operations: RoutedOperation[]): Map<string, OperationHandler> {
  const handlers = new Map<string, OperationHandler>()
  const missing: string[] = []
  for (const operation of operations.filter((candidate) => candidate.succeeds)) {
    const handler = OPERATION_HANDLERS[operation.operationId]
    if (handler) handlers.set(operation.operationId, handler)
    else missing.push(operation.operationId)
  }
  if (missing.length > 0) throw new Error(`No handler for operation(s) ${missing.join(', ')} of the document.`)
  return handlers
}

/** Only `/api` and what lies under it is the users API; decoded, so that `/%61pi/…` is too. */
function assertUnderApi(method: string, path: string, segments: Segment[]): void {
  if (isUnderApi(segments)) return
  throw new AppError(
    'NOT_FOUND',
    `No route ${method} ${path}. The users API lives under /api (docs/contract.md of users-api-kit).`,
  )
}

/** An error the engine did not raise on purpose goes to the log; the answer is the 500 problem alone. */
function reportUnexpected(appError: AppError, thrown: unknown, report: EngineOptions['onUnexpectedError']): void {
  if (appError.code === 'INTERNAL' && !appError.details['simulated']) report?.(appError.details.cause ?? thrown)
}

function answer(status: number, body: string | undefined): EngineResponse {
  if (body === undefined) return { status, headers: {} }
  return { status, headers: { 'content-type': JSON_CONTENT_TYPE }, body }
}

/**
 * HEAD is GET without the content (RFC 9110 §9.3.2): the same status and headers, an error's too, and
 * the Content-Length the GET's content has (§8.6), which only the engine knows: a transport writes it
 * for a body it is given.
 */
function withContentFor(method: string, response: EngineResponse): EngineResponse {
  if (!isHead(method) || response.body === undefined) return response
  const length = String(UTF8.encode(response.body).byteLength)
  return { ...response, headers: { ...response.headers, 'content-length': length }, body: undefined }
}

const UTF8 = new TextEncoder()
