import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { AppError } from './errors.js'
import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import { parseState } from './domain/parse-state.js'
import type { MockState } from './domain/mock-state.js'
import { buildApp } from './mock/build-app.js'
import { listTokens, type TokenListing } from './mock/control-routes.js'
import { assertNoUserHasControlToken } from './mock/control-token.js'
import { createTarget, type MockTarget } from './mock/create-target.js'
import type { SimulatedConditions } from './mock/simulated-conditions.js'
import { attachStateFile, StateFile } from './mock/state-file.js'
import type { StateHolder } from './mock/state-holder.js'
import { DEFAULT_FIXTURES_PATH, readFixtureFile } from './seed/read-fixtures.js'
import { loadSpec, type LoadedSpec } from './spec/load-spec.js'
import { compileStateValidator, type StateValidator } from './spec/state-schema.js'
import { openStartCache, type StartCache } from './start-cache.js'
import { readVersion } from './read-version.js'

export interface MockOptions extends SimulatedConditions {
  /** The OpenAPI document (default: the kit's openapi/users.yaml). */
  spec?: string
  /** A fixture file (default: the kit's fixtures/default.json). */
  fixtures?: string
  /** Faker's seed: the same seed gives byte-identical data (default 1). */
  seed?: number
  /** Faker users added to each organization (default 50). */
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
}

export const MOCK_DEFAULTS = { seed: 1, users: 50, port: 4010, host: '127.0.0.1' } as const

export interface MockApp {
  app: FastifyInstance
  state: StateHolder
  spec: LoadedSpec
  /** The state `POST /__mock/reset` returns to (fixtures and faker's users). */
  seed: MockState
  /** Whether the state came from an existing `stateFile`. */
  loadedStateFile: boolean
}

/** The mock, built and seeded but not listening: for `inject()` tests and for the CLI. */
export async function createMockApp(options: MockOptions = {}): Promise<MockApp> {
  const cache = openStartCache()
  const spec = await loadSpec(options.spec, cache)
  // Compiled on first use: a start whose seed is cached validates nothing.
  let validateState: StateValidator | undefined
  const stateValidator = (): StateValidator => (validateState ??= compileStateValidator(spec.dereferenced))
  const seed = await seedState(options, spec, stateValidator, cache)
  const saved =
    options.stateFile !== undefined && existsSync(options.stateFile)
      ? await readFixtureFile(options.stateFile, stateValidator(), 'state file')
      : undefined
  if (options.controlToken !== undefined) {
    if (options.controlToken.trim() === '')
      throw new AppError('VALIDATION_FAILED', 'The control token must not be empty.')
    // Both: `POST /__mock/reset` returns to the seed.
    checkControlToken(seed, options.controlToken, 'The fixtures')
    if (saved) checkControlToken(saved, options.controlToken, `The state file ${options.stateFile}`)
  }
  const { app, state } = await buildApp({
    ...options,
    spec,
    seed,
    parseState: (input) => parseState(input, stateValidator()),
  })
  if (saved) state.replace(saved)
  if (options.stateFile !== undefined) {
    const stateFile = new StateFile(options.stateFile, state, (error) =>
      app.log.error({ err: error }, `Cannot write the state file ${options.stateFile}.`),
    )
    if (saved) stateFile.markSaved()
    await attachStateFile(app, stateFile).catch(async (error: unknown) => {
      await app.close()
      throw error
    })
  }
  return { app, state, spec, seed, loadedStateFile: saved !== undefined }
}

function checkControlToken(state: MockState, controlToken: string, source: string): void {
  try {
    assertNoUserHasControlToken(state, controlToken)
  } catch (error) {
    throw new AppError(
      'VALIDATION_FAILED',
      `${source} give a user the control token as their token: choose another control token (for example: openssl rand -hex 16). ${(error as Error).message}`,
    )
  }
}

/**
 * The fixtures plus faker's users. Deterministic from the fixture file, the document, the seed and
 * the count, so it is remembered by their hash (start-cache.ts) and faker is only loaded on a miss.
 */
async function seedState(
  options: MockOptions,
  spec: LoadedSpec,
  stateValidator: () => StateValidator,
  cache: StartCache,
): Promise<MockState> {
  const fixturesPath = options.fixtures ?? DEFAULT_FIXTURES_PATH
  const seed = options.seed ?? MOCK_DEFAULTS.seed
  const usersPerOrganization = options.users ?? MOCK_DEFAULTS.users
  const fixturesText = await readFile(fixturesPath, 'utf8').catch(() => undefined)
  const inputs = [
    await readVersion(),
    JSON.stringify(spec.dereferenced),
    fixturesText ?? '',
    String(seed),
    String(usersPerOrganization),
  ]
  const cached = fixturesText === undefined ? undefined : await cache.read<MockState>('seed', inputs)
  if (cached) return cached
  const fixtures = await readFixtureFile(fixturesPath, stateValidator())
  const { generateState } = await import('./seed/generate-state.js')
  const state = generateState({ fixtures, seed, usersPerOrganization })
  await cache.write('seed', inputs, state)
  return state
}

export interface StartMockOptions extends MockOptions {
  /** Default 0: a free port, so that every test file can start its own mock. */
  port?: number
  host?: string
  /** Disposable users created for `target` (default 6). */
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
  const { app, state } = await createMockApp(options)
  await app.listen({ port: options.port ?? 0, host: options.host ?? MOCK_DEFAULTS.host })
  const url = serverUrl(app)
  const target = createTarget(state.store, url, options.disposable ?? 6)
  state.markBaseline()
  return {
    url,
    tokens: listTokens(state.store),
    target,
    app,
    reset: async () => state.reset(),
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
