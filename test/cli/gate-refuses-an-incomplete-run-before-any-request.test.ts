import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  FUZZ_DISPOSABLE_USERS,
  gateDisposableUsers,
  listMissingPrerequisites,
} from '../../src/cli/gate-prerequisites.js'
import { DISPOSABLE_USERS_NEEDED } from '../../src/target/disposable-slots.js'
import { parseTarget } from '../../src/contract/target/target.js'
import { buildCliOnce, runCli } from '../support/cli-mock-process.js'
import { targetFor } from '../support/hostile-servers.js'

// A gate is strict: a target that lacks something, or a missing Schemathesis, would only fail it after
// minutes of checks. It finds all of it before it sends a single request, and says what to do.

/** A complete target: every actor, the gate's disposable users, and a backend that sends no webhooks. */
function completeTarget(baseUrl: string) {
  return parseTarget({ ...targetFor(baseUrl), webhooks: false })
}

describe('what a gate run needs of its target', () => {
  test('verify disposable users plus fuzz own, taken from the suite slot table', () => {
    expect(gateDisposableUsers(false)).toBe(DISPOSABLE_USERS_NEEDED + FUZZ_DISPOSABLE_USERS)
    expect(listMissingPrerequisites(completeTarget('http://127.0.0.1:1'), { readOnly: false })).toEqual([])
  })

  test('every lack at once, each saying what to add', () => {
    const target = completeTarget('http://127.0.0.1:1')
    delete target.actors.bot
    delete target.actors.outsider
    target.disposable = target.disposable.slice(0, 2)
    delete target.webhooks
    const needed = gateDisposableUsers(false)
    expect(listMissingPrerequisites(target, { readOnly: false })).toEqual([
      `the target has no "bot" actor: add actors.bot, the token of an ACTIVE BOT_USER of the owner's organization`,
      'the target has no "outsider" actor: add actors.outsider, the token of an ACTIVE user of another organization',
      `the target lists 2 disposable users; the gate needs ${needed} (${DISPOSABLE_USERS_NEEDED} for verify, ${FUZZ_DISPOSABLE_USERS} for fuzz): add ${needed - 2} fresh ACTIVE CLIENT_VIEWERs of the first organization`,
      'the target configures no webhook receiver: add "webhooks" (schemas/target.schema.json), or "webhooks": false if the backend sends none',
    ])
  })

  test('--read-only needs no disposable user: nothing is written', () => {
    const target = { ...completeTarget('http://127.0.0.1:1'), disposable: [] }
    expect(listMissingPrerequisites(target, { readOnly: true })).toEqual([])
    expect(listMissingPrerequisites(target, { readOnly: false })).toHaveLength(1)
  })
})

describe('users-api-kit gate refuses before any request', () => {
  let server: Server
  let requests = 0
  let baseUrl: string
  let directory: string

  beforeAll(async () => {
    await buildCliOnce()
    directory = await mkdtemp(join(tmpdir(), 'gate-prerequisites-'))
    // Counts whatever reaches it: a gate that refuses must leave it at 0.
    server = createServer((_request, response) => {
      requests += 1
      response.statusCode = 500
      response.end()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const address = server.address()
    if (address === null || typeof address === 'string') throw new Error('not listening on TCP')
    baseUrl = `http://127.0.0.1:${address.port}`
  }, 120_000)

  afterAll(async () => {
    server.close()
    await rm(directory, { recursive: true, force: true })
  })

  async function gate(target: unknown, args: string[] = [], env: Record<string, string> = {}) {
    const file = join(directory, `target-${Math.random().toString(36).slice(2)}.json`)
    await writeFile(file, JSON.stringify(target))
    requests = 0
    const run = await runCli(['gate', '--target', file, '--out', join(directory, 'out'), ...args], {
      env: { NO_COLOR: '1', ...env },
    })
    return { exitCode: run.exitCode, stdout: String(run.stdout), stderr: String(run.stderr) }
  }

  test('a target without a bot, with too few disposable users, and no Schemathesis: exit 2, every item in one message, 0 requests', async () => {
    const target = { ...targetFor(baseUrl), webhooks: false, disposable: targetFor(baseUrl).disposable.slice(0, 3) }
    delete target.actors.bot
    const run = await gate(target, ['--schemathesis', join(directory, 'no-such-st')])

    expect(run.exitCode, run.stderr).toBe(2)
    expect(requests).toBe(0)
    expect(run.stderr).toContain('users-api-kit gate: cannot run, and nothing was sent to the target:')
    expect(run.stderr).toContain('  - the target has no "bot" actor: add actors.bot')
    expect(run.stderr).toContain(
      `  - the target lists 3 disposable users; the gate needs ${gateDisposableUsers(false)}`,
    )
    expect(run.stderr).toContain(`  - --schemathesis ${join(directory, 'no-such-st')} is not an executable file.`)
    expect(run.stderr).toMatch(/\n {4}Install it with: /)
    expect(run.stdout).toContain('users-api-kit gate: COULD NOT RUN (exit 2)')
    expect(run.stdout).toContain('3 prerequisites missing (see above): nothing ran')
  })

  test('a complete target, but Schemathesis is not installed where SCHEMATHESIS_BIN says: exit 2, 0 requests', async () => {
    const run = await gate({ ...targetFor(baseUrl), webhooks: false }, [], {
      SCHEMATHESIS_BIN: join(directory, 'missing-st'),
    })

    expect(run.exitCode, run.stderr).toBe(2)
    expect(requests).toBe(0)
    expect(run.stderr).toContain(`  - SCHEMATHESIS_BIN ${join(directory, 'missing-st')} is not an executable file.`)
    // The target lacks nothing: Schemathesis is the one item.
    expect(run.stderr.match(/\n {2}- /g)).toHaveLength(1)
  })
})
