import type { EngineRequest, EngineResponse } from '../engine/engine-request.js'
import { toProblemResponse } from '../engine/problems.js'
import { AppError } from '../errors.js'
import { isUnderPath, splitTarget } from '../http/request-target.js'
import { BODY_LIMIT } from '../spec/contract-limits.js'
import { answerCorsHeaders, preflightHeaders, type CorsOrigins } from './cors-rule.js'
import type { UsersApiMock } from './create-users-api-mock.js'

/** A request of the users API as a transport hands it over: as it arrived, its body not read yet. */
export interface ApiRequest {
  /** As sent: `GET`, `PATCH`, … */
  method: string
  /** The request target as sent: `/api/users?page=2` (an absolute URL is accepted too). */
  url: string
  /** Header names in lower case; a repeated header as the transport joins it. */
  headers: EngineRequest['headers']
  /**
   * Present when the request announces a body: reads it and resolves to its first `limit + 1` bytes
   * (undefined for none), enough for the engine to tell that it is over `limit`. Rejects when the body
   * never comes whole (its client went away, or it stalled): there is nothing to answer then.
   */
  readBody?: ((limit: number) => Promise<Uint8Array | undefined>) | undefined
}

export interface ApiPipelineOptions {
  mock: UsersApiMock
  /** CORS for the answers: `false` leaves every header out and OPTIONS to the engine (401 or 405). */
  cors: CorsOrigins
  /** Where the users API is mounted, when not at the root (`/mock`): nothing outside it is answered but 404. */
  basePath?: string
  /** Told of an error the engine let through (none should): the answer is a 500 problem. */
  onUnexpectedError?: ((error: unknown) => void) | undefined
}

/** A request in, the answer out: its headers a fresh object, the transport's to add to (Content-Length). */
export type ApiPipeline = (request: ApiRequest) => Promise<EngineResponse>

/**
 * What every transport does with a request of the users API, on standard Request/Response-like values
 * and no `node:` module (as the engine): a CORS preflight is answered, the body read within the limit,
 * the engine asked, and CORS added to its answer. The transports only translate: the node:http listener
 * (src/server/engine-listener.ts, which writes a read answered before from the mock's cache itself, the
 * one path that skips this) and the fetch handler (src/fetch/create-fetch-handler.ts, which MSW calls).
 *
 * @example
 * const answer = createApiPipeline({ mock, cors: true })
 * const response = await answer({ method: 'GET', url: '/api/users/me', headers: { authorization: 'Bearer owner-token' } })
 */
export function createApiPipeline(options: ApiPipelineOptions): ApiPipeline {
  const { mock, cors } = options
  const basePath = options.basePath ?? ''
  return async function answerApiRequest(request) {
    const origin = request.headers['origin']
    let url = request.url
    if (basePath !== '') {
      const { path, query } = splitTarget(url)
      // Mounted under a base path, nothing outside it is the users API (the app's own /api stays the app's).
      if (!isUnderPath(path, basePath)) {
        const outside = new AppError('NOT_FOUND', `No route ${path}: this mock answers under ${basePath}/api.`)
        return withCors(toProblemResponse(outside), origin)
      }
      url = `${path.slice(basePath.length)}${query === '' ? '' : `?${query}`}`
    }
    // A browser's preflight carries no token: answered before the users API, which would refuse it 401.
    if (request.method === 'OPTIONS' && cors !== false) {
      const asked = { origin, requestHeaders: request.headers['access-control-request-headers'] }
      return { status: 204, headers: preflightHeaders(asked, cors) }
    }
    // The engine reads no more of a body than BODY_LIMIT + 1 bytes: enough to answer 413 (engine-request.ts).
    const body = request.readBody === undefined ? undefined : await request.readBody(BODY_LIMIT)
    let answer: EngineResponse
    try {
      answer = await mock.handle({ method: request.method, url, headers: request.headers, body })
    } catch (error) {
      options.onUnexpectedError?.(error)
      answer = toProblemResponse(new AppError('INTERNAL', 'The mock met an unexpected error; its log says more.'))
    }
    return withCors(answer, origin)
  }

  function withCors(answer: EngineResponse, origin: string | undefined): EngineResponse {
    return { ...answer, headers: answerHeaders(answer, origin, cors) }
  }
}

/**
 * An answer's headers and the CORS headers of the request's origin (mock-instance/cors-rule.ts), in a
 * fresh object the caller may add to.
 */
export function answerHeaders(
  answer: EngineResponse,
  origin: string | undefined,
  cors: CorsOrigins,
): Record<string, string> {
  return cors === false ? { ...answer.headers } : { ...answer.headers, ...answerCorsHeaders(origin, cors) }
}
