import type { Duplex } from 'node:stream'
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify'
import { adminRoutes } from './admin/admin-routes.js'
import { handleApiRequest, type ApiDependencies } from './api/handle-api-request.js'
import type { Database } from './database/database.js'

export interface AppOptions {
  db: Database
  adminToken: string
  onEventsCommitted: () => void
  log: (line: string) => void
  /** Fastify's request log (pino, JSON lines on stdout). */
  logger?: boolean
}

/**
 * The service's HTTP side: the users API under /api (handleApiRequest, in the contract's order of
 * checks) and the admin routes under /admin.
 *
 * @example
 * const app = buildApp({ db, adminToken, onEventsCommitted: () => worker.wake(), log: console.error })
 * await app.listen({ port: 3000, host: '127.0.0.1' })
 */
export function buildApp(options: AppOptions) {
  const deps: ApiDependencies = { db: options.db, onEventsCommitted: options.onEventsCommitted, log: options.log }
  const api = (request: FastifyRequest, reply: FastifyReply) => handleApiRequest(request, reply, deps)
  const underApi = (request: FastifyRequest) =>
    /^(?:[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*)?\/api(?:[/?]|$)/.test(request.raw.url ?? '')
  const app = Fastify({
    logger: options.logger ?? false,
    // An id may hold 4,096 characters (docs/contract.md §3), up to 4 bytes each, percent-encoded: 48 KiB
    // of request line, past Node's default 16 KiB of request line and headers.
    http: { maxHeaderSize: 64 * 1024 },
    // What Node's HTTP parser refuses (a longer request, bytes that are not HTTP) never reaches a route:
    // a problem+json 400 too, not Fastify's own JSON (its 431 is no status the document gives).
    clientErrorHandler: refuseMalformedRequest,
    // A path that is not validly percent-encoded never reaches a route: under /api it is still the
    // API's, whose order of checks answers 401 before it looks at the id.
    frameworkErrors: (error, request, frameworkReply) => {
      const reply = frameworkReply as FastifyReply
      if (underApi(request)) return api(request, reply)
      return reply
        .code(400)
        .type('application/problem+json')
        .send({ type: 'about:blank', status: 400, detail: error.message })
    },
  })
  // Everything under /api is answered here, before Fastify reads a body or judges a Content-Type (it
  // answers 415 for a malformed one, and 400 for QUERY without one, where the contract puts 401 first).
  app.addHook('onRequest', async (request, reply) => {
    if (underApi(request)) return api(request, reply)
  })
  app.register(adminRoutes, { db: options.db, adminToken: options.adminToken })
  app.setNotFoundHandler((_request, reply) => {
    return reply.code(404).type('application/problem+json').send({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      code: 'NOT_FOUND',
      detail: 'The users API lives under /api.',
    })
  })
  return app
}

function refuseMalformedRequest(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const body = JSON.stringify({
    type: 'about:blank',
    title: 'Bad Request',
    status: 400,
    code: 'VALIDATION_FAILED',
    detail: 'The request is not HTTP this service can read (its request line and headers are limited to 64 KiB).',
    errors: [{ in: 'header', path: '', message: error.code ?? 'malformed request' }],
  })
  if (!socket.writable) return void socket.destroy()
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}
