import type { IncomingMessage, ServerResponse } from 'node:http'
import type { EngineRequest, EngineResponse } from '../engine/engine-request.js'
import { answerHeaders, createApiPipeline, type ApiRequest } from '../mock-instance/create-api-pipeline.js'
import type { CorsOrigins } from '../mock-instance/cors-rule.js'
import type { UsersApiMock } from '../mock-instance/create-users-api-mock.js'
import { BoundedBytes } from '../streams/bounded-bytes.js'
import { announcesBody } from '../http/announces-body.js'
import { waitsToSendMoreThan } from '../http/expect-continue.js'

/** What the request log is told of each answered request (request-log.ts): no header of it. */
export interface AnsweredRequest {
  method: string
  url: string
  status: number
  /** From the request's arrival to its answer handed to the socket. */
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
 * The server's transport of the users API, on node:http itself (as @hono/node-server hands a request to
 * `app.fetch`): the request as it arrived goes to the pipeline (mock-instance/create-api-pipeline.ts:
 * preflight, bounded read, the engine, CORS), the body read only when one is announced, and the answer
 * comes out with its Content-Length. A read the mock answered before on the same state is written from
 * its cache at once, without the pipeline. It holds no rule of the users API. Every request Fastify does
 * not serve (its docs and control routes) comes here.
 *
 * @example
 * http.createServer(createEngineListener({ mock, cors: true }))
 */
export function createEngineListener(options: EngineListenerOptions) {
  const corsOrigins = options.cors
  // A cache of the headers of each answer the engine hands out again (its answer cache, mock-instance/answer-cache.ts)
  // to a request without Origin, built once with their CORS part and Content-Length: a page of 20 users
  // read again costs a lookup, not an object and a byte count a request. Gone with the answer.
  const headersWithoutOrigin = new WeakMap<EngineResponse, Record<string, string>>()
  const headersOf = (answer: EngineResponse, origin: string | undefined): Record<string, string> => {
    if (origin === undefined) {
      const built = headersWithoutOrigin.get(answer)
      if (built) return built
    }
    const headers = answerHeaders(answer, origin, corsOrigins)
    if (answer.body !== undefined) headers['content-length'] = String(Buffer.byteLength(answer.body))
    if (origin === undefined) headersWithoutOrigin.set(answer, headers)
    return headers
  }

  const pipeline = createApiPipeline({
    mock: options.mock,
    cors: corsOrigins,
    onUnexpectedError: options.onUnexpectedError,
  })

  return function answerWithEngine(request: IncomingMessage, response: ServerResponse): void {
    // A read answered before on this very state: written at once, in the request's own turn.
    const reused = announcesBody(request) ? undefined : options.mock.reuse(toEngineRequest(request))
    if (reused) {
      const started = options.onAnswered ? performance.now() : 0
      send(response, reused, headersOf(reused, single(request.headers.origin)))
      answered(request, reused.status, started, reused.role)
      return
    }
    answer(request, response).catch((error: unknown) => {
      // The answer could not be written (the connection went away meanwhile): nothing left to answer.
      options.onUnexpectedError?.(error)
      response.destroy()
    })
  }

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const started = options.onAnswered ? performance.now() : 0
    let engineAnswer: EngineResponse
    try {
      engineAnswer = await pipeline(toApiRequest(request))
    } catch {
      // The body never came whole: its client went away, or it stalled and was dropped (body-timeout.ts).
      response.destroy()
      return
    }
    // The pipeline's headers are a fresh object, this answer's alone.
    const { headers } = engineAnswer
    if (engineAnswer.body !== undefined) headers['content-length'] = String(Buffer.byteLength(engineAnswer.body))
    send(response, engineAnswer, headers)
    answered(request, engineAnswer.status, started, engineAnswer.role)
  }

  function send(response: ServerResponse, engineAnswer: EngineResponse, headers: Record<string, string>): void {
    response.writeHead(engineAnswer.status, options.closing?.() ? { ...headers, connection: 'close' } : headers)
    // A string: node writes it in one piece with the head (a Buffer went out as a second, slower writev).
    response.end(engineAnswer.body)
  }

  function answered(request: IncomingMessage, status: number, started: number, role?: string): void {
    if (!options.onAnswered) return
    options.onAnswered({
      method: request.method ?? 'GET',
      url: request.url ?? '/',
      status,
      milliseconds: performance.now() - started,
      role,
    })
  }
}

/**
 * The request as the engine takes it, for the answer cache. Node joins a repeated header into one string
 * but for `set-cookie` (an array), which the engine never reads: its headers are handed over as they
 * are, not copied.
 */
function toEngineRequest(request: IncomingMessage): EngineRequest {
  return {
    method: request.method ?? 'GET',
    url: request.url ?? '/',
    headers: request.headers as EngineRequest['headers'],
    // Named, so that the engine and its cache see requests of one shape (V8's inline caches).
    body: undefined,
  }
}

/** The request as the pipeline takes it: its body read only when one is announced. */
function toApiRequest(request: IncomingMessage): ApiRequest {
  return {
    method: request.method ?? 'GET',
    url: request.url ?? '/',
    headers: request.headers as EngineRequest['headers'],
    readBody: announcesBody(request) ? (limit) => readBody(request, limit) : undefined,
  }
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/**
 * The body's first `limit + 1` bytes: enough for the engine to tell that it is over the limit (413).
 * The rest is read and dropped, so that the connection can carry the next request; the body timeout
 * drops a body that stalls (body-timeout.ts), the server's request timeout one that never ends. A body
 * declared over the limit that the client waits to be asked for (build-app.ts does not ask) is not
 * read: bytes enough to be over the limit stand for it.
 */
async function readBody(request: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  if (waitsToSendMoreThan(request, limit)) return new Uint8Array(limit + 1)
  const body = new BoundedBytes(limit + 1)
  for await (const chunk of request as AsyncIterable<Buffer>) body.write(chunk)
  return body.total === 0 ? undefined : body.bytes()
}
