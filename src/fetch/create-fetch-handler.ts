import type { EngineRequest } from '../engine/engine-request.js'
import { toProblemResponse } from '../engine/problems.js'
import { AppError } from '../errors.js'
import {
  createUsersApiMock,
  type UsersApiMock,
  type UsersApiMockOptions,
} from '../mock-instance/create-users-api-mock.js'
import { BODY_LIMIT } from '../spec/contract-limits.js'
import { readUpTo } from '../streams/bounded-bytes.js'
import { answerPreflight, corsHeaders, type CorsOrigins } from './cors.js'

export interface FetchHandlerOptions extends UsersApiMockOptions {
  /** A mock instance to answer with (shared with other transports); default: a new one from the options. */
  mock?: UsersApiMock | Promise<UsersApiMock>
  /**
   * Where the users API is mounted, when not at the origin's root: with `/mock`, `/mock/api/users`
   * is the users API's `/api/users`.
   */
  basePath?: string
  /**
   * CORS, as the mock server answers it: `true` (the default) allows any origin, a list only those
   * origins, `false` sends no CORS headers and hands OPTIONS to the users API (which answers 401 or 405).
   */
  cors?: CorsOrigins
}

/** A standard fetch handler: a `Request` in, a `Response` out. */
export interface FetchHandler {
  (request: Request): Promise<Response>
  /** The mock instance behind it: its state and control operations in code. */
  readonly mock: Promise<UsersApiMock>
}

/**
 * The users API mock as a standard fetch handler, for any runtime with `Request` and `Response`: Node,
 * Deno, Bun, edge workers, route handlers of Next.js or Hono. It translates; the engine holds the rules.
 * It serves the users API and answers CORS preflights; the server's /__mock/ routes, /docs and events
 * page are the `mock` instance's methods here (docs/mock.md, "What each transport serves").
 *
 * @example
 * import { createFetchHandler } from 'users-api-kit/fetch'
 * const handle = createFetchHandler({ users: 10 })
 * Deno.serve(handle) // or: export default { fetch: handle }
 */
export function createFetchHandler(options: FetchHandlerOptions = {}): FetchHandler {
  const mock = Promise.resolve(options.mock ?? createUsersApiMock(options))
  const basePath = (options.basePath ?? '').replace(/\/+$/, '')
  const cors = options.cors ?? true
  const handle = async (request: Request): Promise<Response> => {
    const pathname = new URL(request.url).pathname
    // Only at a segment's end: with `/mock`, `/mockhttp://x/api/users` must not become `http://x/api/users`.
    const underBase = basePath === '' || pathname === basePath || pathname.startsWith(`${basePath}/`)
    // A browser's preflight carries no token: answered before the users API, which would refuse it 401.
    if (underBase && cors !== false && request.method === 'OPTIONS') return answerPreflight(request, cors)
    // Mounted under a base path, the handler answers nothing outside it (the app's own /api stays the app's).
    const response = underBase
      ? await (await mock).handle(await toEngineRequest(request, basePath))
      : toProblemResponse(new AppError('NOT_FOUND', `No route ${pathname}: this mock answers under ${basePath}/api.`))
    const headers = cors === false ? response.headers : { ...response.headers, ...corsHeaders(request, cors) }
    return new Response(response.body ?? null, { status: response.status, headers })
  }
  return Object.assign(handle, { mock })
}

async function toEngineRequest(request: Request, basePath: string): Promise<EngineRequest> {
  const url = new URL(request.url)
  const path = url.pathname.slice(basePath.length)
  const headers: Record<string, string> = {}
  request.headers.forEach((value, name) => {
    headers[name] = value
  })
  return { method: request.method, url: `${path}${url.search}`, headers, body: await readBody(request) }
}

/** The body's first `BODY_LIMIT + 1` bytes: enough for the engine to tell it is over the limit (413). */
async function readBody(request: Request): Promise<Uint8Array | undefined> {
  if (request.body === null) return undefined
  const body = await readUpTo(request.body, BODY_LIMIT + 1)
  return body.total === 0 ? undefined : body.bytes()
}
