import type { EngineRequest } from '../engine/engine-request.js'
import { toProblemResponse } from '../engine/problems.js'
import { AppError } from '../errors.js'
import {
  createUsersApiMock,
  type UsersApiMock,
  type UsersApiMockOptions,
} from '../mock-instance/create-users-api-mock.js'
import { BODY_LIMIT } from '../spec/contract-limits.js'

export interface FetchHandlerOptions extends UsersApiMockOptions {
  /** A mock instance to answer with (shared with other transports); default: a new one from the options. */
  mock?: UsersApiMock | Promise<UsersApiMock>
  /**
   * Where the users API is mounted, when not at the origin's root: with `/mock`, `/mock/api/users`
   * is the users API's `/api/users`.
   */
  basePath?: string
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
 *
 * @example
 * import { createFetchHandler } from 'users-api-kit/fetch'
 * const handle = createFetchHandler({ users: 10 })
 * Deno.serve(handle) // or: export default { fetch: handle }
 */
export function createFetchHandler(options: FetchHandlerOptions = {}): FetchHandler {
  const mock = Promise.resolve(options.mock ?? createUsersApiMock(options))
  const basePath = (options.basePath ?? '').replace(/\/+$/, '')
  const handle = async (request: Request): Promise<Response> => {
    const pathname = new URL(request.url).pathname
    // Only at a segment's end: with `/mock`, `/mockhttp://x/api/users` must not become `http://x/api/users`.
    const underBase = basePath === '' || pathname === basePath || pathname.startsWith(`${basePath}/`)
    // Mounted under a base path, the handler answers nothing outside it (the app's own /api stays the app's).
    const response = underBase
      ? await (await mock).handle(await toEngineRequest(request, basePath))
      : toProblemResponse(new AppError('NOT_FOUND', `No route ${pathname}: this mock answers under ${basePath}/api.`))
    return new Response(response.body ?? null, { status: response.status, headers: response.headers })
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
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    size += value.byteLength
    if (size > BODY_LIMIT) {
      await reader.cancel()
      break
    }
  }
  if (size === 0) return undefined
  const body = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    body.set(chunk, offset)
    offset += chunk.byteLength
  }
  return body
}
