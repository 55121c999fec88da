import type { IncomingMessage, ServerResponse } from 'node:http'
import { createServer } from '../http/node-http.js'
import type { Socket } from 'node:net'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import type { UsersApiMock } from '../mock-instance/create-users-api-mock.js'
import { CORS_EXPOSED_HEADERS, CORS_MAX_AGE_S, CORS_METHODS, type CorsOrigins } from '../mock-instance/cors-rule.js'
import type { StateHolder } from '../mock-instance/state-holder.js'
import type { OpenAPIV3_1 } from 'openapi-types'
import { refuseOtherControlMethods, registerControlRoutes } from './control-routes.js'
import { createControlOriginGuard } from './control-origin.js'
import { registerDocsRoutes } from './docs-routes.js'
import { guardConnections } from '../http/connection-guard.js'
import { dropStalledBodies } from '../http/body-timeout.js'
import { controlBodyLimits } from './control-json-bodies.js'
import { waitsToSendMoreThan } from '../http/expect-continue.js'
import { BODY_LIMIT } from '../spec/contract-limits.js'
import { createEngineListener } from './engine-listener.js'
import { refuseConnect, refuseStalledBody, replyToClientError, sendProblem } from './problem-replies.js'
import { isLevelEnabled, logAnswered, OneLineRequestLog } from './request-log.js'
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

/** @fastify/cors's settings for the mock's own routes: the same methods and headers as the users API's. */
const OWN_ROUTES_CORS = {
  methods: CORS_METHODS,
  exposedHeaders: CORS_EXPOSED_HEADERS,
  maxAge: CORS_MAX_AGE_S,
  // A plain OPTIONS (no Origin or no Access-Control-Request-Method) is no error: the strict default
  // answers it a text/plain 400, and CONTRACT §5 wants every error as problem+json.
  strictPreflight: false,
}

/**
 * The mock's own routes, which Fastify serves: the control routes, the reference, the document. Every
 * other request is the engine's (engine-listener.ts), the users API first.
 */
function isOwnRoute(url: string): boolean {
  return /^\/(?:__mock\/|docs(?:[/?]|$)|openapi\.(?:json|yaml)(?:\?|$))/.test(url)
}

/** The most a request's body may hold: its control route's limit, the users API's elsewhere. */
function bodyLimitOf(request: IncomingMessage): number {
  const url = request.url ?? '/'
  return isOwnRoute(url) ? controlBodyLimits(request.method, url).bytes : BODY_LIMIT
}

/** How long a client may take to send a whole request: a 30 MB `PUT /__mock/state` at 1 MB/s fits. */
const REQUEST_TIMEOUT_MS = 60_000
/** How long a client may take to send the request line and headers. */
const HEADERS_TIMEOUT_MS = 10_000

/**
 * The mock's server, not listening. node:http hands every request of the users API (and any other path
 * Fastify does not serve) straight to the engine (engine-listener.ts), as @hono/node-server hands a
 * request to `app.fetch`; Fastify serves what it is best at: the docs, the OpenAPI document, the
 * control routes and their guards, and its own logs. Call `app.listen()`; a request handed to
 * `app.server`'s `request` event without a socket is answered as the listening server answers it.
 *
 * @example
 * const { app } = await buildApp({ mock: await createUsersApiMock(), loadDocument: async () => (await loadSpec()).document })
 * await app.listen({ port: 0, host: '127.0.0.1' })
 */
export async function buildApp(options: BuildAppOptions): Promise<{ app: FastifyInstance; state: StateHolder }> {
  let closing = false
  const apiCors: CorsOrigins = options.cors === false ? false : Array.isArray(options.cors) ? options.cors : true
  let answerWithFastify: ((request: IncomingMessage, response: ServerResponse) => void) | undefined
  const dispatch = (request: IncomingMessage, response: ServerResponse): void => {
    if (answerWithFastify && isOwnRoute(request.url ?? '/')) return answerWithFastify(request, response)
    if (logsIncoming) app.log.debug({ method: request.method, url: request.url }, 'incoming request')
    answerWithEngine(request, response)
  }
  const app = Fastify({
    logger: options.logger ?? false,
    serverFactory: (handler) => {
      answerWithFastify = handler
      const server = createServer(
        {
          // Node answers a request without Host a bodiless 400 of its own; the users API needs no Host.
          requireHostHeader: false,
          // Headers arrive in seconds, not a minute (node's default), checked every second: slow sockets
          // hold nothing long.
          headersTimeout: HEADERS_TIMEOUT_MS,
          connectionsCheckingInterval: 1_000,
          // Node's default is no limit: a client announcing more body than it sends held a connection forever.
          requestTimeout: REQUEST_TIMEOUT_MS,
        },
        dispatch,
      )
      return server
    },
    // Requests node's parser refuses (headers over 16 KiB, bytes over 0x7F) as problems too.
    clientErrorHandler: replyToClientError,
    frameworkErrors: (error, request, reply) => sendProblem(request, reply, error),
    // While closing, Fastify answers a request on a kept-alive connection with a plain-JSON 503
    // (CONTRACT §5 wants problem+json). Answered as usual instead, with the Connection: close Fastify
    // adds to every answer of its own while closing (the engine's answers: engine-listener.ts).
    return503OnClosing: false,
    // One line a request, and no header in it.
    logController: new OneLineRequestLog(),
  })
  // Asked once, as the info level below: the level is taken to be the one the server was built with.
  const logsIncoming = isLevelEnabled(app.log, 'debug')
  const answerWithEngine = createEngineListener({
    mock: options.mock,
    cors: apiCors,
    // --quiet: no line to write, so nothing is timed or built for one.
    ...(isLevelEnabled(app.log, 'info') ? { onAnswered: (answered) => logAnswered(app.log, answered) } : {}),
    onUnexpectedError: (error) =>
      app.log.error({ err: error }, 'Unexpected error answering a request of the users API.'),
    closing: () => closing,
  })
  const connections = guardConnections(app.server)
  dropStalledBodies(app.server, refuseStalledBody)
  // Node answers an `Expect` other than 100-continue a bodiless 417 of its own; RFC 9110 lets a server
  // ignore it, and the request is answered as usual.
  app.server.on('checkExpectation', dispatch)
  // Expect: 100-continue: node would invite any body. One declared over its route's limit is not asked
  // for: its answer comes at once, and the connection closes after it, since the client may send the
  // body anyway (RFC 9110 §10.1.1). The engine and the control routes' parser read no such body.
  app.server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if (waitsToSendMoreThan(request, bodyLimitOf(request))) response.setHeader('connection', 'close')
    else response.writeContinue()
    app.server.emit('request', request, response)
  })
  app.server.on('connect', (_request, socket) => refuseConnect(socket as Socket))
  app.addHook('preClose', (done) => {
    closing = true
    done()
  })
  // No parser at the root: each route names what it reads (the control routes, their bounded JSON).
  app.removeAllContentTypeParsers()
  app.setErrorHandler((error, request, reply) => sendProblem(request, reply, error))
  // A control path asked with a method it does not answer is a 405, as on the users API; any other path
  // under the mock's own prefixes that Fastify does not know is the engine's (a 404 outside the API).
  app.setNotFoundHandler((request, reply) =>
    refuseOtherControlMethods(app, request, reply, async () => {
      reply.hijack()
      answerWithEngine(request.raw, reply.raw)
      return reply
    }),
  )

  if (Array.isArray(options.cors)) {
    // What the mock serves of its own (the docs, which list tokens, and the control routes) goes to the
    // origins --cors lists, never to any origin: the default `true` is for the users API alone.
    // Loaded only here: the default (any origin, the users API's own answers) needs no plugin.
    const { default: cors } = await import('@fastify/cors')
    await app.register(cors, { ...OWN_ROUTES_CORS, origin: options.cors })
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
