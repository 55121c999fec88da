import { mkdtemp, readdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import type { MockState } from '../../src/domain/mock-state.js'
import {
  buildCliOnce,
  killRunningClis,
  runCli,
  startCli as startAnyCli,
  WITHIN_MS,
} from '../support/cli-mock-process.js'

// `users-api-kit mock`, as a developer runs it: the built CLI in its own process.

beforeAll(buildCliOnce, 120_000)

afterEach(killRunningClis)

function startCli(args: string[] = []) {
  return startAnyCli(['--quiet', ...args])
}

async function stateOf(url: string): Promise<MockState> {
  return (await (await fetch(`${url}/__mock/state`)).json()) as MockState
}

describe('users-api-kit mock', () => {
  test('the banner prints the API URL, the docs URL and a curl with the owner token', async () => {
    const { banner, url } = await startCli()
    expect(banner).toContain(`${url}/api/users`)
    expect(banner).toContain(`${url}/docs`)
    expect(banner).toContain(`curl -H 'Authorization: Bearer owner-token' ${url}/api/users/me`)
  })

  test('the URL of the banner answers, and so does the curl it suggests', async () => {
    const { url } = await startCli()
    const me = await fetch(`${url}/api/users/me`, { headers: { authorization: 'Bearer owner-token' } })
    expect(me.status).toBe(200)
    expect(((await me.json()) as { data: { role: string } }).data.role).toBe('CLIENT_OWNER')
    expect((await fetch(`${url}/docs`)).status).toBe(200)
  })

  test.each(['SIGTERM', 'SIGINT'] as const)(
    '%s stops it with exit code 0, within a few seconds, and frees the port',
    async (signal) => {
      const { cli, url } = await startCli()
      const started = performance.now()
      cli.kill(signal)
      const result = await cli
      expect(result.exitCode).toBe(0)
      expect(performance.now() - started).toBeLessThan(WITHIN_MS)
      await expect(fetch(`${url}/__mock/tokens`)).rejects.toThrow()
    },
  )

  test('--port abc: exit code 2 and a message naming --port', async () => {
    const result = await runCli(['mock', '--port', 'abc'])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain('--port')
    expect(result.stderr).toContain('abc')
  })

  test('--fixtures /nonexistent.json: exit code 2 and a message naming the file', async () => {
    const result = await runCli(['mock', '--port', '0', '--fixtures', '/nonexistent.json'])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain('/nonexistent.json')
  })

  test('a start that fails (the port is in use) writes no state file', async () => {
    const { createServer } = await import('node:net')
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const port = (taken.address() as { port: number }).port
    const directory = await mkdtemp(join(tmpdir(), 'users-api-kit-port-'))
    try {
      const result = await runCli(['mock', '--port', String(port), '--state-file', join(directory, 'state.json')])
      expect(result.exitCode).toBe(2)
      expect(result.stderr).toContain(`Port ${port} is in use`)
      expect(await readdir(directory)).toEqual([])
    } finally {
      taken.close()
    }
  })

  test('a saved state given as --fixtures loads exactly: no fake users on top of it', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'users-api-kit-scenario-'))
    const scenario = join(directory, 'scenario.json')
    const saved = await startCli(['--users', '2'])
    const state = (await (await fetch(`${saved.url}/__mock/state`)).json()) as { users: unknown[] }
    await writeFile(scenario, JSON.stringify(state))
    const restored = await startCli(['--fixtures', scenario])
    expect(restored.banner).toContain(`${state.users.length} users (${scenario})`)
    const again = (await (await fetch(`${restored.url}/__mock/state`)).json()) as { users: unknown[] }
    expect(again.users).toHaveLength(state.users.length)
    const withFakes = await startCli(['--fixtures', scenario, '--users', '1'])
    expect(withFakes.banner).toContain('1 fake users per organization')
  })

  test('an unknown option: exit code 2 and a pointer to --help', async () => {
    const result = await runCli(['mock', '--prot', '4010'])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain('--help')
  })

  test('--help: exit code 0 and the usage, with every option', async () => {
    const result = await runCli(['mock', '--help'])
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toContain('Usage: users-api-kit mock')
    for (const option of [
      '--port',
      '--host',
      '--seed',
      '--users',
      '--fixtures',
      '--latency',
      '--fail-rate',
      '--cors',
      '--control-token',
      '--state-file',
      '--quiet',
    ]) {
      expect(result.stdout).toContain(option)
    }
  })

  test('users-api-kit --help: exit code 0 and the commands', async () => {
    const result = await runCli(['--help'])
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toContain('users-api-kit mock')
  })

  test('--seed 7 twice gives the same state; --seed 8 another', async () => {
    const states: MockState[] = []
    for (const seed of ['7', '7', '8']) {
      const { cli, url } = await startCli(['--seed', seed, '--users', '10'])
      states.push(await stateOf(url))
      cli.kill('SIGTERM')
      await cli
    }
    expect(states[0]!.users.length).toBeGreaterThan(10)
    expect(states[1]).toEqual(states[0])
    expect(states[2]).not.toEqual(states[0])
  })
})
