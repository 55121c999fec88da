import type { Readable } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { EngineRequest } from '../engine/engine-request.js'
import type { UsersApiMock } from '../mock-instance/create-users-api-mock.js'
import { BODY_LIMIT } from '../spec/contract-limits.js'
import { rememberRole } from './request-log.js'

/**
 * The Fastify transport of the engine: the request as it arrived (method, target, headers, body
 * bytes) in, the engine's answer out. It holds no rule of the users API.
 */
export function createEngineRoute(mock: UsersApiMock) {
  return async function answerWithEngine(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const headers = toHeaderRecord(request.headers)
    if (SENT_CONTENT_TYPE.has(request)) headers['content-type'] = SENT_CONTENT_TYPE.get(request)
    const engineRequest: EngineRequest = {
      method: request.method,
      url: request.url,
      headers,
      body: await readBody(request.raw),
    }
    const response = await mock.handle(engineRequest)
    rememberRole(request, response.role)
    reply.code(response.status).headers(response.headers)
    return response.body === undefined ? reply.send() : reply.send(response.body)
  }
}

/** The Content-Type each request going to the engine was sent with (undefined: none). */
const SENT_CONTENT_TYPE = new WeakMap<FastifyRequest, string | undefined>()
/** What Fastify sees instead: a media type no parser reads, so the body is left to the engine. */
const UNREAD = 'application/x-users-api-kit-unread'

/**
 * A `preParsing` hook for the requests the engine answers. Fastify judges a Content-Type before any
 * handler: one it cannot parse (`json`) is its own 415, and a QUERY without one its own 400, both
 * ahead of CONTRACT §3's order. The header is set aside for the engine, which judges it in its place.
 */
export function setContentTypeAside(
  request: FastifyRequest,
  _reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: never) => void,
): void {
  // Only where Fastify would judge it: a Content-Type was sent, or a QUERY has none.
  if (request.is404 && (request.headers['content-type'] !== undefined || request.method === 'QUERY')) {
    SENT_CONTENT_TYPE.set(request, request.headers['content-type'])
    request.headers['content-type'] = UNREAD
  }
  done(null, payload as never)
}

/** Node's headers (lower-case names; set-cookie as an array) as the engine's record. */
function toHeaderRecord(headers: FastifyRequest['headers']): Record<string, string | undefined> {
  const record: Record<string, string | undefined> = {}
  for (const [name, value] of Object.entries(headers)) record[name] = Array.isArray(value) ? value.join(', ') : value
  return record
}

/**
 * The body's first `BODY_LIMIT + 1` bytes: enough for the engine to tell that it is over the limit
 * (413). The rest is read and dropped, so that the connection can carry the next request; the server's
 * request timeout bounds a body that never ends.
 */
async function readBody(stream: Readable & { headers: FastifyRequest['headers'] }): Promise<Uint8Array | undefined> {
  // Most requests (GETs) announce no body: nothing to wait for.
  const { 'content-length': length, 'transfer-encoding': encoding } = stream.headers
  if (encoding === undefined && (length === undefined || length === '0')) return undefined
  if (stream.readableEnded) return undefined
  const chunks: Buffer[] = []
  let kept = 0
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (kept > BODY_LIMIT) continue
    chunks.push(chunk)
    kept += chunk.length
  }
  if (kept === 0) return undefined
  return Buffer.concat(chunks).subarray(0, BODY_LIMIT + 1)
}
