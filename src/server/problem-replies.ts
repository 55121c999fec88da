import type { Socket } from 'node:net'
import type { ConnectionError, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../errors.js'
import { toProblem, toProblemResponse } from '../engine/problems.js'
import { fromRouteError } from './from-route-error.js'
import { BODY_TIMEOUT_MS } from '../http/body-timeout.js'

/**
 * Sends an error of the server's own routes (the control routes, Fastify's errors) as problem+json,
 * through the engine's one mapping from code to status and headers.
 */
export function sendProblem(request: FastifyRequest, reply: FastifyReply, thrown: unknown): FastifyReply {
  const error = fromRouteError(thrown)
  if (error.code === 'INTERNAL') request.log.error({ err: error.details.cause ?? error }, error.message)
  const response = toProblemResponse(error)
  // A body refused while it still arrives (a 413 of the control routes): Fastify would close the connection
  // with its bytes unread, which resets it, and a client still writing never sees the answer. Kept alive,
  // node reads the rest and drops it (the body timeout drops one that stalls, the request timeout one that never ends).
  if (!request.raw.complete) reply.removeHeader('connection')
  return reply.code(response.status).headers(response.headers).send(response.body)
}

/**
 * Fastify's `clientErrorHandler`. A request node's HTTP parser refuses (a byte over 0x7F in the
 * request line, headers over 16 KiB, a malformed header) never reaches Fastify's error handler, and
 * Fastify's default answer is plain JSON (431 for big headers): this one is a CONTRACT §5 problem,
 * a 400, and the connection is closed as node and Fastify close it.
 *
 * @example
 * Fastify({ clientErrorHandler: replyToClientError })
 */
export function replyToClientError(error: ConnectionError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const message =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'the request line and headers are over 16 KiB'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'the request did not arrive whole in time (is Content-Length larger than the body sent?)'
        : `the request is not valid HTTP/1.1 (${error.code})`
  const where = /URL/.test(error.code) ? 'path' : /CHUNK|BODY/.test(error.code) ? 'body' : 'header'
  writeProblemAndClose(
    socket,
    new AppError('VALIDATION_FAILED', `The request is invalid: ${message}.`, {
      errors: [{ in: where, path: '', message }],
    }),
  )
  socket.destroy(error)
}

/**
 * The server's `connect` listener. Node hands a CONNECT to it, never to Fastify, and without one it
 * closed the connection without a word; the mock is no proxy, and says so as a CONTRACT §5 problem.
 *
 * @example
 * server.on('connect', (_request, socket) => refuseConnect(socket))
 */
export function refuseConnect(socket: Socket): void {
  const message = "CONNECT (a proxy's tunnel) is not served: the mock is no proxy"
  writeProblemAndClose(
    socket,
    new AppError('VALIDATION_FAILED', `The request is invalid: ${message}.`, {
      errors: [{ in: 'path', path: '', message }],
    }),
  )
  socket.end()
}

/**
 * What a request whose body stalled is answered before its connection is dropped (body-timeout.ts): a
 * CONTRACT §5 problem, a 400 as for a request that did not arrive whole in time (node's request timeout).
 *
 * @example
 * dropStalledBodies(server, refuseStalledBody)
 */
export function refuseStalledBody(socket: Socket): void {
  const message = `the body stalled: no byte of it for ${BODY_TIMEOUT_MS / 1000} s`
  writeProblemAndClose(
    socket,
    new AppError('VALIDATION_FAILED', `The request is invalid: ${message}.`, {
      errors: [{ in: 'body', path: '', message }],
    }),
  )
}

/** A problem written straight to the socket, saying that the connection closes after it. */
function writeProblemAndClose(socket: Socket, error: AppError): void {
  if (!socket.writable) return
  const problem = toProblem(error)
  const body = JSON.stringify(problem)
  socket.write(
    `HTTP/1.1 ${problem.status} ${problem.title}\r\nContent-Type: application/problem+json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}
