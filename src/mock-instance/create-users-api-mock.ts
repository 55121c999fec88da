import type { MockState } from '../domain/mock-state.js'
import { stateOfSnapshot, type StateSource } from '../domain/user-store.js'
import { parseState, parseStateInSteps } from '../domain/parse-state.js'
import type { EngineRequest, EngineResponse } from '../engine/engine-request.js'
import { createEngine, type Engine } from '../engine/handle-request.js'
import type { SimulatedConditions } from '../engine/simulated-conditions.js'
import { DEFAULT_SEED_OPTIONS } from '../seed/default-seed-options.js'
import { DEFAULT_FIXTURES, DEFAULT_STATE_JSON } from '../seed/generated/default-state.js'
import { DEFAULT_OPERATIONS, validateDefaultState } from '../spec/default-operations.js'
import type { RoutedOperation, Validator } from '../spec/operation-table.js'
import { cacheAnswers } from './answer-cache.js'
import { createTarget, DEFAULT_DISPOSABLE_USERS, type MockTarget } from './create-target.js'
import { assertNoUserHasToken, withoutReservedToken } from './reserved-token.js'
import { StateHolder } from './state-holder.js'
import { stateJsonSlices } from './state-json.js'
import { listTokens, type TokenListing } from './token-listing.js'
import { createMockWebhooks, type MockWebhooks, type WebhookOptions } from '../webhooks/mock-webhooks.js'

export interface UsersApiMockOptions extends SimulatedConditions {
  /** Faker's seed: the same seed gives byte-identical data (default 1). */
  seed?: number
  /** Faker users added to each organization (default 50). */
  users?: number
  /** The named users and organizations faker's users join (default: the kit's fixtures/default.json). */
  fixtures?: MockState
  /** The operations and state validator of another document (`compileOperations`); default the kit's. */
  spec?: { operations: RoutedOperation[]; validateState: Validator }
  /** A token no user may hold (the server's control token). */
  reservedToken?: string
  now?: () => Date
  /** Told of every unexpected error (a 500), whose cause is never sent. */
  onUnexpectedError?: (error: unknown) => void
  /** Endpoints to deliver the events to, their secret, the retry schedule, an in-process callback. */
  webhooks?: WebhookOptions
}

/** One mock of the users API: its state, its engine, and the control operations, whatever the transport. */
export interface UsersApiMock {
  /** Answers one request of the users API (what every transport calls). */
  handle: Engine
  /**
   * The answer `handle` gave this very request (a GET or HEAD, same target and token) on the state as it
   * is now, when it kept one; else undefined. A transport may write it at once (src/server/engine-listener.ts).
   */
  reuse(request: EngineRequest): EngineResponse | undefined
  /** The current state and the state `reset()` returns to. */
  readonly state: StateHolder
  /** The state the mock was seeded with: a copy made at each read, the caller's to change. */
  readonly seed: MockState
  /** The events (CONTRACT §6): subscriptions, deliveries, the recent events. */
  readonly webhooks: MockWebhooks
  /** Back to the seed (or to the baseline `markBaseline()` set); the recent events are forgotten. */
  reset(): void
  /** The whole state in the fixture format, tokens included. */
  exportState(): MockState
  /**
   * {@link exportState} as JSON text, a slice at a time (their bytes together are `JSON.stringify` of it),
   * of the state as it is at the call: for a transport that writes each slice and answers others between.
   */
  exportStateJson(): Generator<string, void>
  /** Validates a whole state (fixture format) and replaces the current one; a bad one changes nothing. */
  replaceState(input: unknown): { organizations: number; users: number }
  /**
   * {@link replaceState} as steps of a few milliseconds each, for a transport that answers other requests
   * between them (a state of 100,000 users takes about a second); the state changes at the last step.
   */
  replaceStateInSteps(input: unknown): Generator<void, { organizations: number; users: number }>
  /** Every token with its user, role and organization. */
  tokens(): TokenListing[]
  /** A contract-suite target: actors of each role and `disposable` fresh users the suite may change. */
  createTarget(baseUrl: string, disposable?: number): MockTarget
  /** Validates a state (fixture format) without applying it. */
  parseState(input: unknown): MockState
}

/**
 * Creates a mock of the users API, not bound to any transport: the server (node:http for the API, Fastify
 * for the mock's own routes), the fetch handler and the MSW handlers are built on it. With the default seed nothing is generated: the state was made at
 * build time; another seed or user count loads faker.
 *
 * @example
 * const mock = await createUsersApiMock({ users: 10 })
 * const response = await mock.handle({ method: 'GET', url: '/api/users/me', headers: { authorization: 'Bearer owner-token' } })
 * mock.reset()
 */
export async function createUsersApiMock(options: UsersApiMockOptions = {}): Promise<UsersApiMock> {
  const operations = options.spec?.operations ?? DEFAULT_OPERATIONS
  const validateState = options.spec?.validateState ?? validateDefaultState
  const parse = (input: unknown): MockState => parseState(input, validateState)
  const seed = withoutReservedToken(await seedState(options, parse), options.reservedToken)
  const webhooks = createMockWebhooks(options.webhooks)
  const state = new StateHolder(seed, options.now, (event) => webhooks.publish(event))
  const engine = createEngine({
    operations,
    store: () => state.store,
    conditions: options,
    ...(options.onUnexpectedError ? { onUnexpectedError: options.onUnexpectedError } : {}),
  })
  const simulates = options.latency !== undefined || (options.failRate ?? 0) > 0
  const { handle, reuse } = cacheAnswers(engine, () => state.store, { simulates })
  function* replaceStateInSteps(input: unknown): Generator<void, { organizations: number; users: number }> {
    // Validated whole before anything changes: a bad document keeps the old state.
    const replacement = yield* parseStateInSteps(input, validateState)
    assertNoUserHasToken(replacement, options.reservedToken)
    yield* state.replaceInSteps(replacement)
    return { organizations: replacement.organizations.length, users: replacement.users.length }
  }
  return {
    handle,
    reuse,
    state,
    get seed() {
      return stateOfSnapshot(state.seed)
    },
    webhooks,
    reset() {
      state.reset()
      webhooks.clear()
    },
    exportState: () => state.store.exportState(),
    exportStateJson: () => stateJsonSlices(state.store.snapshot()),
    replaceState: (input) => runToEnd(replaceStateInSteps(input)),
    replaceStateInSteps,
    tokens: () => listTokens(state.store),
    createTarget: (baseUrl, disposable = DEFAULT_DISPOSABLE_USERS) => createTarget(state.store, baseUrl, disposable),
    parseState: parse,
  }
}

function runToEnd<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/** The fixtures plus faker's users, made as the store reads them; the default seed's state was generated at build time. */
async function seedState(options: UsersApiMockOptions, parse: (input: unknown) => MockState): Promise<StateSource> {
  const seed = options.seed ?? DEFAULT_SEED_OPTIONS.seed
  const usersPerOrganization = options.users ?? DEFAULT_SEED_OPTIONS.usersPerOrganization
  const isDefault =
    options.fixtures === undefined &&
    seed === DEFAULT_SEED_OPTIONS.seed &&
    usersPerOrganization === DEFAULT_SEED_OPTIONS.usersPerOrganization &&
    options.spec === undefined
  if (isDefault) return JSON.parse(DEFAULT_STATE_JSON) as MockState
  const fixtures = parse(options.fixtures ?? DEFAULT_FIXTURES)
  // Loaded only here: faker is most of a bundle, and the default seed never needs it.
  const { streamState } = await import('../seed/generate-state.js')
  return streamState({ fixtures, seed, usersPerOrganization })
}
