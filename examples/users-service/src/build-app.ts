import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify'
import { adminRoutes } from './admin/admin-routes.js'
import { handleApiRequest, type ApiDependencies } from './api/handle-api-request.js'
import type { Database } from './database/database.js'

export interface AppOptions {
  db: Database
  adminToken: string
  onEventsCommitted: () => void
  logger?: boolean
}

/**
 * The service's HTTP side: the users API under /api (handleApiRequest, in the contract's order of
 * checks) and the admin routes under /admin.
 *
 * @example
 * const app = buildApp({ db, adminToken, onEventsCommitted: () => worker.wake() })
 * await app.listen({ port: 3000, host: '127.0.0.1' })
 */
export function buildApp(options: AppOptions) {
  const deps: ApiDependencies = { db: options.db, onEventsCommitted: options.onEventsCommitted }
  const api = (request: FastifyRequest, reply: FastifyReply) => handleApiRequest(request, reply, deps)
  const underApi = (request: FastifyRequest) => /^\/api(?:[/?]|$)/.test(request.raw.url ?? '')
  const app = Fastify({
    logger: options.logger ?? false,
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
  // The API reads its own bodies (src/api/read-body.ts); Fastify leaves them unread.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined))

  app.all('/api', api)
  app.all('/api/*', api)
  app.register(adminRoutes, { db: options.db, adminToken: options.adminToken })
  // Methods Fastify has no route for (PROPFIND, …) and every path outside /api and /admin.
  app.setNotFoundHandler((request, reply) => {
    if (underApi(request)) return api(request, reply)
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
