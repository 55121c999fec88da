import type { IncomingMessage, ServerResponse } from 'node:http'
import type { EngineResponse } from '../engine/engine-request.js'
import { toProblemResponse } from '../engine/problems.js'
import { AppError } from '../errors.js'
import { answerCorsHeaders, preflightHeaders, type CorsOrigins } from '../mock-instance/cors-rule.js'
import type { UsersApiMock } from '../mock-instance/create-users-api-mock.js'
import { BODY_LIMIT } from '../spec/contract-limits.js'

/** What the request log is told of each answered request (request-log.ts): no header of it. */
export interface AnsweredRequest {
  method: string
  url: string
  status: number
  /** From the request's arrival to its answer's last byte handed to the socket. */
  milliseconds: number
  /** The caller's role, when the engine authenticated them. */
  role?: string | undefined
}

export interface EngineListenerOptions {
  mock: UsersApiMock
  /** CORS for the users API's answers; `false` leaves every header out and OPTIONS to the engine. */
  cors: CorsOrigins
  /** Told of every answer, once it is handed to the socket. */
  onAnswered?: (answered: AnsweredRequest) => void
  /** Told of an error the engine let through (none should): the answer is a 500 problem. */
  onUnexpectedError?: (error: unknown) => void
  /** Whether the server is closing: answers then end their kept-alive connection. */
  closing?: () => boolean
}

/**
 * The server's transport of the engine, on node:http itself (as @hono/node-server hands a request to
 * `app.fetch`): the request as it arrived in (method, target, headers, the body's bytes, read only when
 * one is announced), the engine's answer out, with the CORS headers of its origin. It holds no rule of
 * the users API. Every request Fastify does not serve (its docs and control routes) comes here.
 *
 * @example
 * http.createServer(createEngineListener({ mock, cors: true }))
 */
export function createEngineListener(options: EngineListenerOptions) {
  // The bytes of each answer the engine hands out again (its answer cache: mock-instance/answer-cache.ts)
  // are encoded once: a page of 20 users is written as it was, not encoded anew per request.
  const encodedBodies = new WeakMap<EngineResponse, Buffer>()
  const bytesOf = (response: EngineResponse, body: string): Buffer => {
    let bytes = encodedBodies.get(response)
    if (!bytes) {
      bytes = Buffer.from(body)
      encodedBodies.set(response, bytes)
    }
    return bytes
  }

  return function answerWithEngine(request: IncomingMessage, response: ServerResponse): void {
    const started = performance.now()
    const origin = single(request.headers.origin)
    if (request.method === 'OPTIONS' && options.cors !== false) {
      const asked = { origin, requestHeaders: single(request.headers['access-control-request-headers']) }
      write(response, 204, preflightHeaders(asked, options.cors))
      answered(request, 204, started)
      return
    }
    readBody(request)
      .then((body) =>
        options.mock.handle({
          method: request.method ?? 'GET',
          url: request.url ?? '/',
          headers: headersOf(request),
          body,
        }),
      )
      .catch((error: unknown) => {
        options.onUnexpectedError?.(error)
        return toProblemResponse(new AppError('INTERNAL', 'The mock met an unexpected error; its log says more.'))
      })
      .then((answer) => {
        const headers =
          options.cors === false
            ? { ...answer.headers }
            : { ...answer.headers, ...answerCorsHeaders(origin, options.cors) }
        if (options.closing?.()) headers['connection'] = 'close'
        write(response, answer.status, headers, answer.body === undefined ? undefined : bytesOf(answer, answer.body))
        answered(request, answer.status, started, answer.role)
      })
      .catch((error: unknown) => {
        // The connection went away while the answer was written: nothing left to answer.
        options.onUnexpectedError?.(error)
        response.destroy()
      })
  }

  function answered(request: IncomingMessage, status: number, started: number, role?: string): void {
    options.onAnswered?.({
      method: request.method ?? 'GET',
      url: request.url ?? '/',
      status,
      milliseconds: performance.now() - started,
      role,
    })
  }
}

function write(response: ServerResponse, status: number, headers: Record<string, string>, body?: Buffer): void {
  if (body !== undefined) headers['content-length'] = String(body.length)
  response.writeHead(status, headers)
  response.end(body)
}

/** Node's headers (lower-case names; set-cookie as an array) as the engine's record. */
function headersOf(request: IncomingMessage): Record<string, string | undefined> {
  const record: Record<string, string | undefined> = {}
  for (const [name, value] of Object.entries(request.headers))
    record[name] = Array.isArray(value) ? value.join(', ') : value
  return record
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/**
 * The body's first `BODY_LIMIT + 1` bytes, when the request announces one: enough for the engine to tell
 * that it is over the limit (413). The rest is read and dropped, so that the connection can carry the next
 * request; the server's request timeout bounds a body that never ends. Most requests (GETs) announce none,
 * and nothing is waited for.
 */
async function readBody(request: IncomingMessage): Promise<Uint8Array | undefined> {
  const { 'content-length': length, 'transfer-encoding': encoding } = request.headers
  if (encoding === undefined && (length === undefined || length === '0')) return undefined
  const chunks: Buffer[] = []
  let kept = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    if (kept > BODY_LIMIT) continue
    chunks.push(chunk)
    kept += chunk.length
  }
  if (kept === 0) return undefined
  return Buffer.concat(chunks).subarray(0, BODY_LIMIT + 1)
}
