import { existsSync } from 'node:fs'
import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import type { MockState } from '../domain/mock-state.js'
import type { SimulatedConditions } from '../engine/simulated-conditions.js'
import { AppError, isAppError } from '../errors.js'
import { createUsersApiMock, type UsersApiMock } from '../mock-instance/create-users-api-mock.js'
import type { MockTarget } from '../mock-instance/create-target.js'
import { assertNoUserHasToken } from '../mock-instance/reserved-token.js'
import type { StateHolder } from '../mock-instance/state-holder.js'
import type { TokenListing } from '../mock-instance/token-listing.js'
import { DEFAULT_SEED_OPTIONS } from '../seed/default-seed-options.js'
import { readFixtureFile } from '../seed/read-fixtures.js'
import { validateDefaultState } from '../spec/default-operations.js'
import { loadSpec } from '../spec/load-spec.js'
import { buildApp } from './build-app.js'
import { attachStateFile, StateFile } from './state-file.js'
import { createWebhookHosts } from './webhook-hosts.js'
import type { WebhookOptions } from '../webhooks/mock-webhooks.js'

export interface MockOptions extends SimulatedConditions {
  /** An OpenAPI document of your own (default: the kit's openapi/users.yaml, compiled at build time). */
  spec?: string
  /** A fixture file (default: the kit's fixtures/default.json). */
  fixtures?: string
  /** Faker's seed: the same seed gives byte-identical data (default 1). */
  seed?: number
  /** Faker users added to each organization (default 50; 0 with `fixtures`, which then load exactly). */
  users?: number
  cors?: boolean | string[]
  logger?: FastifyServerOptions['logger']
  /**
   * Requires `Authorization: Bearer <controlToken>` on the /__mock/ routes (for a mock shared on a
   * network). It must differ from every token of the users API.
   */
  controlToken?: string
  /**
   * Keeps the state in this JSON file across restarts: loaded at start when it exists (else the seed),
   * rewritten atomically after each change. `POST /__mock/reset` still returns to the seed.
   */
  stateFile?: string
  now?: () => Date
  /** Where the events go (CONTRACT §6): endpoints, their secret, the retry schedule, a callback. */
  webhooks?: WebhookOptions
  /**
   * Hosts besides loopback addresses that webhooks may go to (`--webhook-allow-host`); the hosts of
   * `webhooks.endpoints` are allowed too. Every other endpoint is refused (403), and so is a delivery whose
   * name resolves, or connects, elsewhere.
   */
  webhookAllowHosts?: string[]
}

export const MOCK_DEFAULTS = {
  seed: DEFAULT_SEED_OPTIONS.seed,
  users: DEFAULT_SEED_OPTIONS.usersPerOrganization,
  port: 4010,
  host: '127.0.0.1',
} as const

/**
 * Faker's users per organization: as asked, else none on top of a fixture file of one's own (a saved
 * state loads exactly as saved), else the default.
 */
export function usersPerOrganization(options: Pick<MockOptions, 'users' | 'fixtures'>): number {
  return options.users ?? (options.fixtures === undefined ? MOCK_DEFAULTS.users : 0)
}

export interface MockApp {
  app: FastifyInstance
  /** The mock instance the server answers with. */
  mock: UsersApiMock
  state: StateHolder
  /** The state `POST /__mock/reset` returns to (fixtures and faker's users). */
  seed: MockState
  /** Whether the state came from an existing `stateFile`. */
  loadedStateFile: boolean
  /**
   * Listens, then writes a new state file: a start that fails (a port in use) writes nothing, and once
   * this resolves the file exists.
   */
  listen(options: { port: number; host: string }): Promise<void>
}

/** The mock's Fastify server, built and seeded but not listening: for `inject()` tests and for the CLI. */
export async function createMockApp(options: MockOptions = {}): Promise<MockApp> {
  const spec = options.spec === undefined ? undefined : await loadSpec(options.spec)
  // Ajv's compiler is loaded only for another document: the kit's own validators are generated code.
  const compiled =
    spec === undefined
      ? undefined
      : (await import('../spec/compile-operations.js')).compileOperations(spec.dereferenced)
  const validateState = compiled?.validateState ?? validateDefaultState
  const fixtures = options.fixtures === undefined ? undefined : await readFixtureFile(options.fixtures, validateState)
  const saved =
    options.stateFile !== undefined && existsSync(options.stateFile)
      ? await readFixtureFile(options.stateFile, validateState, 'state file')
      : undefined
  if (options.controlToken !== undefined && options.controlToken.trim() === '') {
    throw new AppError('VALIDATION_FAILED', 'The control token must not be empty.')
  }
  const webhookHosts = createWebhookHosts([
    ...(options.webhookAllowHosts ?? []),
    ...(options.webhooks?.endpoints ?? []).map((endpoint) => new URL(endpoint.url).hostname),
  ])
  // The engine is built before the server whose logger reports its unexpected errors.
  const server: { app?: FastifyInstance } = {}
  const mock = await withControlTokenHint('The fixtures', () =>
    createUsersApiMock({
      seed: options.seed,
      users: usersPerOrganization(options),
      latency: options.latency,
      failRate: options.failRate,
      random: options.random,
      now: options.now,
      ...(fixtures ? { fixtures } : {}),
      ...(compiled ? { spec: compiled } : {}),
      ...(options.controlToken === undefined ? {} : { reservedToken: options.controlToken }),
      webhooks: { ...options.webhooks, send: webhookHosts.send },
      onUnexpectedError: (error) => server.app?.log.error({ err: error }, 'Unexpected error in the engine.'),
    }),
  )
  if (saved) {
    await withControlTokenHint(`The state file ${options.stateFile}`, async () =>
      assertNoUserHasToken(saved, options.controlToken),
    )
  }
  const { app: built } = await buildApp({
    mock,
    webhookHosts,
    loadDocument: async () => (spec ?? (await loadSpec())).document,
    controlToken: options.controlToken,
    ...(options.cors === undefined ? {} : { cors: options.cors }),
    logger: options.logger,
  })
  server.app = built
  if (saved) mock.state.replace(saved)
  let attached: StateFile | undefined
  if (options.stateFile !== undefined) {
    const stateFile = new StateFile(options.stateFile, mock.state, (error) =>
      built.log.error({ err: error }, `Cannot write the state file ${options.stateFile}.`),
    )
    if (saved) stateFile.markSaved()
    await attachStateFile(built, stateFile).catch(async (error: unknown) => {
      await built.close()
      throw error
    })
    attached = stateFile
  }
  const stateFile = attached
  return {
    app: built,
    mock,
    state: mock.state,
    get seed() {
      return mock.seed
    },
    loadedStateFile: saved !== undefined,
    async listen(address) {
      await built.listen(address)
      await stateFile?.flush()
    },
  }
}

/** A user holding the control token: the message says what to do. */
async function withControlTokenHint<T>(source: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (isAppError(error) && /control token/.test(error.message)) {
      throw new AppError(
        'VALIDATION_FAILED',
        `${source} give a user the control token as their token: choose another control token (for example: openssl rand -hex 16). ${error.message}`,
      )
    }
    throw error
  }
}

export interface StartMockOptions extends MockOptions {
  /** Default 0: a free port, so that every test file can start its own mock. */
  port?: number
  host?: string
  /** Disposable users created for `target` (default: what the contract suite needs, with room to spare). */
  disposable?: number
}

export interface RunningMock {
  /** `http://127.0.0.1:PORT`. */
  url: string
  /** Every token with its user, role and organization (as `GET /__mock/tokens`). */
  tokens: TokenListing[]
  /** A contract-suite target for this mock, with its own disposable users. */
  target: MockTarget
  app: FastifyInstance
  /** The mock instance behind the server: its state and control operations in code. */
  mock: UsersApiMock
  /** Back to the state of the start, the target's disposable users included. */
  reset(): Promise<void>
  close(): Promise<void>
}

/**
 * Starts an isolated mock on a free port, for a test runner (vitest, Playwright).
 *
 * @example
 * import { startMock } from 'users-api-kit'
 * const mock = await startMock()
 * const me = await fetch(`${mock.url}/api/users/me`, { headers: { authorization: 'Bearer owner-token' } })
 * await mock.close()
 */
export async function startMock(options: StartMockOptions = {}): Promise<RunningMock> {
  const { app, mock, state, listen } = await createMockApp(options)
  let url: string
  let target: MockTarget
  try {
    await listen({ port: options.port ?? 0, host: options.host ?? MOCK_DEFAULTS.host })
    url = serverUrl(app)
    target = mock.createTarget(url, options.disposable)
  } catch (error) {
    // No server left holding its port when the start fails (fixtures without an active owner, …).
    await app.close()
    throw error
  }
  state.markBaseline()
  return {
    url,
    tokens: mock.tokens(),
    target,
    app,
    mock,
    reset: async () => mock.reset(),
    close: () => app.close(),
  }
}

/** The URL a listening app answers on, with IPv6 hosts bracketed. */
export function serverUrl(app: FastifyInstance): string {
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('The mock is not listening on TCP.')
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return `http://${host}:${address.port}`
}
