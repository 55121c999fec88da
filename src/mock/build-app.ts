import cors from '@fastify/cors'
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify'
import type { MockState } from '../domain/mock-state.js'
import { AppError } from '../errors.js'
import type { User } from '../domain/user.js'
import { createAjv } from '../spec/create-ajv.js'
import type { LoadedSpec } from '../spec/load-spec.js'
import { listOperations, type Operation } from '../spec/operations.js'
import { authenticate } from './authenticate.js'
import { BODY_LIMIT, registerBodyParsing } from './body-parsing.js'
import { registerControlRoutes, type StateParser } from './control-routes.js'
import { registerDocsRoutes } from './docs-routes.js'
import { OPERATION_HANDLERS } from './operation-handlers.js'
import { registerProblemReplies, replyToClientError, sendProblem } from './problem-replies.js'
import { registerOperations } from './register-operations.js'
import { createApiRequestHook } from './api-request-hook.js'
import { delayAsAsked, type SimulatedConditions } from './simulated-conditions.js'
import { StateHolder } from './state-holder.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated user of an API request. */
    caller: User | null
  }
}

export interface BuildAppOptions extends SimulatedConditions {
  spec: LoadedSpec
  /** The state the mock starts in and `POST /__mock/reset` returns to. */
  seed: MockState
  parseState: StateParser
  /** When set, the /__mock/ routes require `Authorization: Bearer <controlToken>`. */
  controlToken?: string | undefined
  /** CORS: `true` (any origin, the default), `false`, or the allowed origins. */
  cors?: boolean | string[]
  logger?: FastifyServerOptions['logger']
  now?: () => Date
}

const API_PREFIX = '/api'
/** How long a client may take to send a whole request: a 30 MB `PUT /__mock/state` at 1 MB/s fits. */
const REQUEST_TIMEOUT_MS = 60_000

/**
 * The mock as a Fastify app, not listening: routes from the document, authentication, problem+json,
 * the control routes and the docs. Call `app.listen()` or `app.inject()`.
 *
 * @example
 * const { app } = await buildApp({ spec, seed, parseState })
 * await app.inject({ url: '/api/users/me', headers: { authorization: 'Bearer owner-token' } })
 */
export async function buildApp(options: BuildAppOptions): Promise<{ app: FastifyInstance; state: StateHolder }> {
  const state = new StateHolder(options.seed, options.now)
  const operations = listOperations(options.spec.dereferenced)
  const authenticationError = (request: FastifyRequest): unknown => {
    if (!isApiPath(request)) return undefined
    try {
      authenticate(request, state.store)
      return undefined
    } catch (error) {
      return error
    }
  }
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT,
    // Ids up to 4,096 characters reach the handler (404 USER_NOT_FOUND); longer ones are the document's
    // MalformedId 400.
    routerOptions: { maxParamLength: 4096 },
    // CONTRACT §3: the token is checked first, even when the URL itself is bad (`/api/users/%FF`).
    frameworkErrors: (error, request, reply) => sendProblem(request, reply, authenticationError(request) ?? error),
    // Requests node's parser refuses (headers over 16 KiB, bytes over 0x7F) as problems too.
    clientErrorHandler: replyToClientError,
    // Fastify's default is no limit: a client announcing more body than it sends held a connection forever.
    requestTimeout: REQUEST_TIMEOUT_MS,
    // While closing, Fastify answers a request on a kept-alive connection with a plain-JSON 503
    // (CONTRACT §5 wants problem+json). Answered as usual instead, with Connection: close (below).
    return503OnClosing: false,
  })
  let closing = false
  app.addHook('preClose', (done) => {
    closing = true
    done()
  })
  configureValidation(app)
  registerBodyParsing(app)
  registerProblemReplies(app, (request) => noRoute(request, operations))

  if (options.cors !== false) {
    await app.register(cors, {
      origin: Array.isArray(options.cors) ? options.cors : true,
      // @fastify/cors allows only GET, HEAD and POST by default: a browser's PATCH and DELETE (and the
      // control routes' PUT) would fail their preflight.
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      exposedHeaders: ['WWW-Authenticate', 'Allow', 'Retry-After'],
      maxAge: 600,
      // A plain OPTIONS (no Origin or no Access-Control-Request-Method) is no error: the strict default
      // answers it a text/plain 400, and CONTRACT §5 wants every error as problem+json.
      strictPreflight: false,
    })
  }
  app.decorateRequest('caller', null)
  // CONTRACT §3: an unknown route under /api is a 404 after authentication, and before the body is
  // read (413). Not async: every other request passes straight through (once the app is closing,
  // with Connection: close, so that kept-alive connections end and the close is not held up).
  app.addHook('onRequest', (request, reply, done) => {
    if (closing) reply.header('connection', 'close')
    if (!request.is404 || !isApiPath(request)) return done()
    delayAsAsked(request, options)
      .then(() => authenticate(request, state.store))
      .then(() => done(noRoute(request, operations)), done)
  })
  const apiRequestHook = createApiRequestHook({
    state,
    conditions: options,
    noRoute: (request) => noRoute(request, operations),
  })
  registerOperations(app, { operations, handlers: OPERATION_HANDLERS, state, apiRequestHook })
  registerControlRoutes(app, state, {
    parseState: options.parseState,
    controlToken: options.controlToken,
    cors: options.cors,
  })
  registerDocsRoutes(app, options.spec.document)
  return { app, state }
}

/**
 * OpenAPI 3.1 schemas are JSON Schema 2020-12. Path and query parameters arrive as strings and are
 * coerced; bodies never are, and unknown body keys are refused (400), never stripped.
 */
function configureValidation(app: FastifyInstance): void {
  // loadSpec validated every schema against OpenAPI 3.1's meta-schema already; compiling that
  // meta-schema again in each Ajv was ~130 ms of the cold start.
  const bodyAjv = createAjv({ validateSchema: false })
  const parameterAjv = createAjv({ validateSchema: false, coerceTypes: true, useDefaults: true })
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : parameterAjv).compile(schema))
}

function isApiPath(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0] ?? ''
  return path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)
}

function noRoute(request: FastifyRequest, operations: Operation[]): AppError {
  const path = request.url.split('?')[0]
  const routes = operations
    .filter((operation) => operation.succeeds)
    .map((operation) => `${operation.method.toUpperCase()} ${operation.path}`)
  return new AppError(
    'NOT_FOUND',
    `No route ${request.method} ${path}. The users API answers ${routes.join(', ')}; its reference is at /docs.`,
  )
}
