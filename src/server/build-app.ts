import type { Socket } from 'node:net'
import cors from '@fastify/cors'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import type { UsersApiMock } from '../mock-instance/create-users-api-mock.js'
import type { StateHolder } from '../mock-instance/state-holder.js'
import type { OpenAPIV3_1 } from 'openapi-types'
import { refuseOtherControlMethods, registerControlRoutes } from './control-routes.js'
import { createControlOriginGuard } from './control-origin.js'
import { registerDocsRoutes } from './docs-routes.js'
import { guardConnections } from './connection-guard.js'
import { createEngineRoute, setContentTypeAside } from './engine-route.js'
import { refuseConnect, replyToClientError, sendProblem } from './problem-replies.js'
import { OneLineRequestLog } from './request-log.js'
import { createWebhookHosts, type WebhookHosts } from './webhook-hosts.js'

export interface BuildAppOptions {
  /** The mock of the users API this server answers with. */
  mock: UsersApiMock
  /** The document (as written) that /openapi.json, /openapi.yaml and /docs serve, read on first request. */
  loadDocument: () => Promise<OpenAPIV3_1.Document>
  /** Where webhooks may go; default: loopback addresses only. */
  webhookHosts?: WebhookHosts
  /** When set, the /__mock/ routes require `Authorization: Bearer <controlToken>`. */
  controlToken?: string | undefined
  /** CORS: `true` (any origin, the default), `false`, or the allowed origins. */
  cors?: boolean | string[]
  logger?: FastifyServerOptions['logger']
}

const CORS_OPTIONS = {
  // @fastify/cors allows only GET, HEAD and POST by default: a browser's PATCH and DELETE (and the
  // control routes' PUT) would fail their preflight.
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  exposedHeaders: ['WWW-Authenticate', 'Allow', 'Retry-After'],
  maxAge: 600,
  // A plain OPTIONS (no Origin or no Access-Control-Request-Method) is no error: the strict default
  // answers it a text/plain 400, and CONTRACT §5 wants every error as problem+json.
  strictPreflight: false,
}

/** The mock's own routes, not the users API's: the control routes, the reference, the document. */
function isOwnRoute(url: string): boolean {
  return /^\/(?:__mock\/|docs(?:[/?]|$)|openapi\.(?:json|yaml)(?:\?|$))/.test(url)
}

/** How long a client may take to send a whole request: a 30 MB `PUT /__mock/state` at 1 MB/s fits. */
const REQUEST_TIMEOUT_MS = 60_000
/** How long a client may take to send the request line and headers. */
const HEADERS_TIMEOUT_MS = 10_000

/**
 * The mock as a Fastify app, not listening. Fastify does what it is best at (listening, logs, CORS, the
 * docs, the control routes and their guards); every other request, the users API first, goes to the
 * engine as it arrived: the engine is the not-found handler, and the root has no body parser, so
 * Fastify leaves bodies unread for it. Call `app.listen()` or `app.inject()`.
 *
 * @example
 * const { app } = await buildApp({ mock: await createUsersApiMock(), loadDocument: async () => (await loadSpec()).document })
 * await app.inject({ url: '/api/users/me', headers: { authorization: 'Bearer owner-token' } })
 */
export async function buildApp(options: BuildAppOptions): Promise<{ app: FastifyInstance; state: StateHolder }> {
  const answerWithEngine = createEngineRoute(options.mock)
  const app = Fastify({
    logger: options.logger ?? false,
    // Ids up to 4,096 characters reach the engine; what is longer is its 400 (MalformedId).
    routerOptions: { maxParamLength: 4096 },
    // A URL Fastify's router cannot decode (`/api/users/%FF`) is the engine's to judge, in its order.
    frameworkErrors: (error, request, reply) =>
      request.url.startsWith('/__mock/') ? sendProblem(request, reply, error) : answerWithEngine(request, reply),
    // Requests node's parser refuses (headers over 16 KiB, bytes over 0x7F) as problems too.
    clientErrorHandler: replyToClientError,
    http: {
      // Node answers a request without Host a bodiless 400 of its own; the users API needs no Host.
      requireHostHeader: false,
      // Headers arrive in seconds, not a minute (node's default), checked every second: slow sockets
      // hold nothing long.
      headersTimeout: HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: 1_000,
    },
    // Node's default: an idle kept-alive connection is not held for Fastify's 72 s.
    keepAliveTimeout: 5_000,
    // Fastify's default is no limit: a client announcing more body than it sends held a connection forever.
    requestTimeout: REQUEST_TIMEOUT_MS,
    // While closing, Fastify answers a request on a kept-alive connection with a plain-JSON 503
    // (CONTRACT §5 wants problem+json). Answered as usual instead, with Connection: close (below).
    return503OnClosing: false,
    // One line a request, and no header in it.
    logController: new OneLineRequestLog(),
  })
  // Node answers an `Expect` other than 100-continue a bodiless 417 of its own; RFC 9110 lets a server
  // ignore it, and the request is answered as usual.
  const connections = guardConnections(app.server)
  app.server.on('checkExpectation', (request, response) => app.server.emit('request', request, response))
  app.server.on('connect', (_request, socket) => refuseConnect(socket as Socket))
  let closing = false
  app.addHook('preClose', (done) => {
    closing = true
    done()
  })
  // Kept-alive connections end once the app is closing, so that the close is not held up.
  app.addHook('onRequest', (_request, reply, done) => {
    if (closing) reply.header('connection', 'close')
    done()
  })
  // No parser at the root: the engine reads the bytes of every request it answers.
  app.removeAllContentTypeParsers()
  app.addHook('preParsing', setContentTypeAside)
  app.setErrorHandler((error, request, reply) => sendProblem(request, reply, error))
  // A control path asked with a method it does not answer is a 405, as on the users API; any other
  // route Fastify does not know is the engine's.
  app.setNotFoundHandler((request, reply) =>
    request.url.startsWith('/__mock/')
      ? refuseOtherControlMethods(app, request, reply, answerWithEngine)
      : answerWithEngine(request, reply),
  )

  if (options.cors !== false) {
    const apiOrigins = Array.isArray(options.cors) ? options.cors : true
    // What the mock serves of its own (the docs, which list tokens, and the control routes) goes to the
    // origins --cors lists, never to any origin: the default `true` is for the users API alone.
    const ownOrigins = Array.isArray(options.cors) ? options.cors : false
    await app.register(cors, {
      delegator: (request, callback) =>
        callback(null, { ...CORS_OPTIONS, origin: isOwnRoute(request.url) ? ownOrigins : apiOrigins }),
    })
  }
  await app.register(registerControlRoutes, {
    mock: options.mock,
    controlToken: options.controlToken,
    cors: options.cors,
    connections,
    webhookHosts: options.webhookHosts ?? createWebhookHosts(),
  })
  registerDocsRoutes(app, {
    loadDocument: options.loadDocument,
    tokens: () => (options.controlToken === undefined ? options.mock.tokens() : undefined),
    // The reference lists tokens: no page of another origin, nor a DNS name rebound to 127.0.0.1, reads it.
    onRequest: createControlOriginGuard(options.cors),
  })
  return { app, state: options.mock.state }
}
