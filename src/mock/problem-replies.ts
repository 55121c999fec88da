import type { Socket } from 'node:net'
import type { ConnectionError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../errors.js'
import { PROBLEMS } from './problems.js'
import { toAppError } from './to-app-error.js'

/** The RFC 9457 body of CONTRACT §5. */
export interface Problem {
  type: 'about:blank'
  title: string
  status: number
  code: string
  detail: string
  errors?: NonNullable<AppError['details']['errors']>
}

export function toProblem(error: AppError): Problem {
  const { status, title } = PROBLEMS[error.code]
  const problem: Problem = { type: 'about:blank', title, status, code: error.code, detail: error.message }
  if (error.code === 'VALIDATION_FAILED') {
    problem.errors = error.details.errors?.length
      ? error.details.errors
      : [{ in: 'body', path: '', message: error.message }]
  }
  return problem
}

/** Sends any error as `application/problem+json`, with the headers its status requires. */
export function sendProblem(request: FastifyRequest, reply: FastifyReply, thrown: unknown): FastifyReply {
  const error = toAppError(thrown)
  const problem = toProblem(error)
  if (problem.status >= 500) request.log.error({ err: error.details.cause ?? error }, error.message)
  if (error.code === 'UNAUTHENTICATED') {
    // CONTRACT §2, RFC 6750: `error="invalid_token"` only when a non-empty Bearer token was refused.
    reply.header('www-authenticate', error.details.invalidToken ? 'Bearer error="invalid_token"' : 'Bearer')
  }
  if (error.code === 'METHOD_NOT_ALLOWED') {
    reply.header('allow', (error.details.allow ?? request.routeOptions.config.allow ?? []).join(', '))
  }
  if (error.details.retryAfter !== undefined) reply.header('retry-after', String(error.details.retryAfter))
  return reply.code(problem.status).type('application/problem+json').send(JSON.stringify(problem))
}

/** Every error Fastify or a handler raises, and every unknown route, as problem+json. */
export function registerProblemReplies(app: FastifyInstance, noRoute: (request: FastifyRequest) => AppError): void {
  app.setErrorHandler((error, request, reply) => sendProblem(request, reply, error))
  app.setNotFoundHandler((request, reply) => sendProblem(request, reply, noRoute(request)))
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
  const problem = toProblem(
    new AppError('VALIDATION_FAILED', `The request is invalid: ${message}.`, {
      errors: [{ in: where, path: '', message }],
    }),
  )
  const body = JSON.stringify(problem)
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/problem+json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    )
  }
  socket.destroy(error)
}
