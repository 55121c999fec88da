import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { MockState } from '../domain/mock-state.js'
import type { UserStore } from '../domain/user-store.js'
import { AppError } from '../errors.js'
import { assertJsonBody } from './body-parsing.js'
import { createControlOriginGuard } from './control-origin.js'
import { assertNoUserHasControlToken, createControlTokenGuard } from './control-token.js'
import { createTarget } from './create-target.js'
import type { StateHolder } from './state-holder.js'

/** Validates a whole state document (fixture format); throws VALIDATION_FAILED naming the first problem. */
export type StateParser = (input: unknown) => MockState

/** A token and whom it authenticates: what `GET /__mock/tokens` lists. */
export interface TokenListing {
  token: string
  userId: string
  name: string
  email: string
  role: string
  status: string
  organizationId: string
}

export function listTokens(store: UserStore): TokenListing[] {
  return store.tokens().map(({ token, user }) => ({
    token,
    userId: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    status: user.status,
    organizationId: user.organizationId,
  }))
}

/** A state of 100,000 users is about 30 MB of JSON. */
const STATE_BODY_LIMIT = 256 * 1024 * 1024

export interface ControlRouteOptions {
  parseState: StateParser
  /** When set, every control route requires `Authorization: Bearer <controlToken>`. */
  controlToken?: string | undefined
  /** The mock's CORS setting: origins it lists may call the control routes from a browser. */
  cors?: boolean | string[] | undefined
}

/**
 * The mock's own routes under /__mock/ (CONTRACT §7: not part of the users API). They let a developer
 * or a test find tokens, build a contract-suite target, and save, load and reset the state.
 */
export function registerControlRoutes(
  app: FastifyInstance,
  state: StateHolder,
  { parseState, controlToken, cors }: ControlRouteOptions,
): void {
  const onRequest = [
    createControlOriginGuard(cors),
    ...(controlToken === undefined ? [] : [createControlTokenGuard(controlToken)]),
  ]
  app.get('/__mock/tokens', { onRequest }, async () => ({ data: listTokens(state.store) }))

  app.get('/__mock/target', { onRequest }, async (request) => {
    const count = disposableCount(request)
    return createTarget(state.store, `${request.protocol}://${request.host}`, count)
  })

  app.post('/__mock/reset', { onRequest }, async () => {
    state.reset()
    return summary(state)
  })

  app.get('/__mock/state', { onRequest }, async () => state.store.exportState())

  app.put(
    '/__mock/state',
    { onRequest, bodyLimit: STATE_BODY_LIMIT, config: { jsonBody: true }, preValidation: assertJsonBody },
    async (request) => {
      // Validated whole before anything changes: a bad document keeps the old state.
      const replacement = parseState(request.body)
      assertNoUserHasControlToken(replacement, controlToken)
      state.replace(replacement)
      return summary(state)
    },
  )
}

function disposableCount(request: FastifyRequest): number {
  const raw = (request.query as { disposable?: string }).disposable ?? '6'
  const count = Number(raw)
  if (!/^\d+$/.test(raw) || count < 0 || count > 100) {
    throw new AppError('VALIDATION_FAILED', 'disposable must be an integer from 0 to 100.', {
      errors: [{ in: 'query', path: '/disposable', message: 'must be an integer from 0 to 100' }],
    })
  }
  return count
}

function summary(state: StateHolder): { organizations: number; users: number } {
  const exported = state.store.exportState()
  return { organizations: exported.organizations.length, users: exported.users.length }
}
