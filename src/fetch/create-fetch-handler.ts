import { createApiPipeline, type ApiPipeline, type ApiRequest } from '../mock-instance/create-api-pipeline.js'
import type { CorsOrigins } from '../mock-instance/cors-rule.js'
import {
  createUsersApiMock,
  type UsersApiMock,
  type UsersApiMockOptions,
} from '../mock-instance/create-users-api-mock.js'
import { readUpTo } from '../streams/bounded-bytes.js'

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
 * page are the `mock` instance's methods here (docs/mock.md, "What each transport serves"). What it does
 * with a request is the pipeline's every transport shares (mock-instance/create-api-pipeline.ts).
 *
 * @example
 * import { createFetchHandler } from 'users-api-kit/fetch'
 * const handle = createFetchHandler({ users: 10 })
 * Deno.serve(handle) // or: export default { fetch: handle }
 */
export function createFetchHandler(options: FetchHandlerOptions = {}): FetchHandler {
  const mock = Promise.resolve(options.mock ?? createUsersApiMock(options))
  let pipeline: ApiPipeline | undefined
  const handle = async (request: Request): Promise<Response> => {
    pipeline ??= createApiPipeline({
      mock: await mock,
      cors: options.cors ?? true,
      basePath: (options.basePath ?? '').replace(/\/+$/, ''),
      onUnexpectedError: options.onUnexpectedError,
    })
    const answer = await pipeline(toApiRequest(request))
    return new Response(answer.body ?? null, { status: answer.status, headers: answer.headers })
  }
  return Object.assign(handle, { mock })
}

/** The request as the pipeline takes it: the URL's path and query (a `#…` is no part of a request). */
function toApiRequest(request: Request): ApiRequest {
  const url = new URL(request.url)
  const headers: Record<string, string> = {}
  request.headers.forEach((value, name) => {
    headers[name] = value
  })
  const body = request.body
  return {
    method: request.method,
    url: `${url.pathname}${url.search}`,
    headers,
    readBody: body === null ? undefined : (limit) => readBody(body, limit),
  }
}

/**
 * The body's first `limit + 1` bytes: enough for the engine to tell it is over the limit (413); the
 * stream is cancelled there.
 */
async function readBody(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | undefined> {
  const body = await readUpTo(stream, limit + 1)
  return body.total === 0 ? undefined : body.bytes()
}
