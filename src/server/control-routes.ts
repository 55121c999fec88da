import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods, onRequestHookHandler } from 'fastify'
import { AppError } from '../errors.js'
import { DEFAULT_DISPOSABLE_USERS } from '../mock-instance/create-target.js'
import type { UsersApiMock } from '../mock-instance/create-users-api-mock.js'
import { isJsonMediaType } from '../spec/contract-limits.js'
import { STATE_LIMITS } from '../mock-instance/state-limits.js'
import type { ConnectionGuard } from '../http/connection-guard.js'
import type { WebhookHosts } from './webhook-hosts.js'
import { controlBodyLimits, registerControlJsonParser } from './control-json-bodies.js'
import type { ScannedJson } from './json-body-scanner.js'
import { parseScannedJson } from './parse-scanned-json.js'
import { createTimeSlices, oneATurn, runInSlices } from './time-slices.js'
import { createControlOriginGuard } from './control-origin.js'
import { createControlTokenGuard } from './control-token.js'
import { registerWebhookRoutes } from './webhook-routes.js'

export interface ControlRouteOptions {
  mock: UsersApiMock
  /** When set, every control route requires `Authorization: Bearer <controlToken>`. */
  controlToken?: string | undefined
  /** The mock's CORS setting: origins it lists may call the control routes from a browser. */
  cors?: boolean | string[] | undefined
  /** The server's connection accounting (event streams count toward their own cap). */
  connections: ConnectionGuard
  /** Where webhook endpoints may be. */
  webhookHosts: WebhookHosts
}

/**
 * The mock's own routes under /__mock/ (CONTRACT §7: not part of the users API), over the mock
 * instance's control operations: find tokens, build a contract-suite target, save, load and reset the
 * state, subscribe webhook endpoints and watch the events. A Fastify plugin: its JSON parser is its own, the users API's bodies stay the engine's.
 */
export async function registerControlRoutes(app: FastifyInstance, options: ControlRouteOptions): Promise<void> {
  const { mock, controlToken, cors, connections, webhookHosts } = options
  registerControlJsonParser(app, (request) => controlBodyLimits(request.method, request.url))
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

  // Written a slice at a time as the reader takes it, one slice ahead (time-slices.ts): 100,000 users in one
  // go took 24 s, and four exports at once 1.49 GiB.
  app.get('/__mock/state', { onRequest }, async (_request, reply) =>
    reply
      .type('application/json; charset=utf-8')
      .send(Readable.from(oneATurn(mock.exportStateJson()), { highWaterMark: 1 })),
  )

  // One state loads at a time: each costs up to the body's size again in memory while it loads.
  let loading = false
  const oneLoadAtATime: onRequestHookHandler = (_request, reply, done) => {
    if (loading) {
      const error = new AppError(
        'SERVICE_UNAVAILABLE',
        'Another state is being loaded; send this one again in a moment.',
        { retryAfter: 1 },
      )
      return done(error)
    }
    loading = true
    reply.raw.once('close', () => (loading = false))
    done()
  }
  app.put('/__mock/state', { onRequest: [...onRequest, oneLoadAtATime] }, async (request) => {
    if (!isJsonMediaType(request.headers['content-type'])) {
      throw new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Send the state as JSON, with the header Content-Type: application/json.',
      )
    }
    // Nothing here holds the bytes once they are parsed, nor the parsed document once it is checked.
    const input = await parseScannedJson(takeScannedBody(request), createTimeSlices())
    return runInSlices(mock.replaceStateInSteps(input))
  })

  registerWebhookRoutes(app, { mock, onRequest, connections, webhookHosts })
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

/** The scanned body of `PUT /__mock/state`, within STATE_LIMITS, and no longer held by the request. */
function takeScannedBody(request: FastifyRequest): ScannedJson {
  const scanned = request.body as ScannedJson
  request.body = undefined
  assertStateSize(scanned)
  return scanned
}

/** STATE_LIMITS, counted on the scanned body before anything of it is parsed. */
function assertStateSize({ bytes, members = [] }: ScannedJson): void {
  for (const member of members) {
    const key = bytes.toString('utf8', member.key.start, member.key.end)
    const part = key === '"organizations"' ? 'organizations' : key === '"users"' ? 'users' : undefined
    if (part === undefined || member.elements === undefined || member.elements.length <= STATE_LIMITS[part]) continue
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `PUT /__mock/state takes at most ${STATE_LIMITS[part]} ${part}; this state has ${member.elements.length}.`,
    )
  }
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
