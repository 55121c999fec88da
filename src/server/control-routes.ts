import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify'
import { AppError } from '../errors.js'
import { DEFAULT_DISPOSABLE_USERS } from '../mock-instance/create-target.js'
import type { UsersApiMock } from '../mock-instance/create-users-api-mock.js'
import { isJsonMediaType } from '../spec/contract-limits.js'
import type { ConnectionGuard } from './connection-guard.js'
import { createControlOriginGuard } from './control-origin.js'
import { createControlTokenGuard } from './control-token.js'
import { registerWebhookRoutes } from './webhook-routes.js'

/**
 * A state of 100,000 users is about 30 MB of JSON: twice that. What a body of this size costs to parse
 * and refuse stays bounded (the state validator stops at the first error).
 */
const STATE_BODY_LIMIT = 64 * 1024 * 1024

export interface ControlRouteOptions {
  mock: UsersApiMock
  /** When set, every control route requires `Authorization: Bearer <controlToken>`. */
  controlToken?: string | undefined
  /** The mock's CORS setting: origins it lists may call the control routes from a browser. */
  cors?: boolean | string[] | undefined
  /** The server's connection accounting (event streams count toward their own cap). */
  connections: ConnectionGuard
}

/**
 * The mock's own routes under /__mock/ (CONTRACT §7: not part of the users API), over the mock
 * instance's control operations: find tokens, build a contract-suite target, save, load and reset the
 * state, subscribe webhook endpoints and watch the events. A Fastify plugin: its JSON parser is its own, the users API's bodies stay the engine's.
 */
export async function registerControlRoutes(app: FastifyInstance, options: ControlRouteOptions): Promise<void> {
  const { mock, controlToken, cors, connections } = options
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: STATE_BODY_LIMIT },
    (_request, body, done) => {
      try {
        done(null, JSON.parse(body as string))
      } catch (error) {
        done(error as Error, undefined)
      }
    },
  )
  const onRequest = [
    createControlOriginGuard(cors),
    ...(controlToken === undefined ? [] : [createControlTokenGuard(controlToken)]),
  ]
  app.get('/__mock/tokens', { onRequest }, async () => ({ data: mock.tokens() }))

  // A POST: it creates users (a GET that changed the state was what an <img> tag could send).
  app.post('/__mock/target', { onRequest }, async (request) =>
    mock.createTarget(`${request.protocol}://${request.host}`, disposableCount(request)),
  )
  app.get('/__mock/target', { onRequest }, async () => {
    throw new AppError('METHOD_NOT_ALLOWED', 'POST /__mock/target creates a target and its disposable users.', {
      allow: ['POST'],
    })
  })

  app.post('/__mock/reset', { onRequest }, async () => {
    mock.reset()
    return summary(mock)
  })

  app.get('/__mock/state', { onRequest }, async () => mock.exportState())

  app.put('/__mock/state', { onRequest, bodyLimit: STATE_BODY_LIMIT }, async (request) => {
    if (!isJsonMediaType(request.headers['content-type'])) {
      throw new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Send the state as JSON, with the header Content-Type: application/json.',
      )
    }
    return mock.replaceState(request.body)
  })

  registerWebhookRoutes(app, { mock, onRequest, connections })
}

/** The methods a request may use on a control path, in a 405's Allow (HEAD comes with GET). */
const CONTROL_METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']

/**
 * The not-found handler's part for /__mock/: a path the mock serves, asked with another method
 * (`PROPFIND /__mock/tokens`, `DELETE /__mock/state`), is a 405 with Allow; an unknown path goes on to
 * `otherwise` (the engine's 404).
 */
export async function refuseOtherControlMethods(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  otherwise: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>,
): Promise<FastifyReply> {
  const path = request.url.split('?')[0] ?? ''
  const allow = CONTROL_METHODS.filter((method) => app.findRoute({ method, url: path }) !== null)
  if (allow.length === 0) return otherwise(request, reply)
  throw new AppError('METHOD_NOT_ALLOWED', `${path} answers ${allow.join(', ')}, not ${request.method}.`, { allow })
}

function disposableCount(request: FastifyRequest): number {
  const raw = (request.query as { disposable?: string }).disposable ?? String(DEFAULT_DISPOSABLE_USERS)
  const count = Number(raw)
  if (!/^\d+$/.test(raw) || count < 0 || count > 100) {
    throw new AppError('VALIDATION_FAILED', 'disposable must be an integer from 0 to 100.', {
      errors: [{ in: 'query', path: '/disposable', message: 'must be an integer from 0 to 100' }],
    })
  }
  return count
}

function summary(mock: UsersApiMock): { organizations: number; users: number } {
  const exported = mock.exportState()
  return { organizations: exported.organizations.length, users: exported.users.length }
}
