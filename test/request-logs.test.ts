import { afterEach, beforeAll, expect, test } from 'vitest'
import { buildCliOnce, killRunningClis, runCli, startCli } from './support/cli-mock-process.js'

// The mock's request log: one line a request that a person or a machine can read, and no secret in it.

beforeAll(buildCliOnce, 120_000)

afterEach(killRunningClis)

test('on a pipe: one JSON line a request, with method, path, status, time and the caller role, no headers', async () => {
  const { cli, url } = await startCli([])
  await fetch(`${url}/api/users?limit=2`, { headers: { authorization: 'Bearer admin-token', 'x-secret': 'hidden' } })
  await fetch(`${url}/api/users/me`)
  cli.kill('SIGTERM')
  const result = await cli
  // Nothing for the user to act on: no deprecation or other warning of a library.
  expect(result.stderr).not.toMatch(/Deprecation|Warning/)
  // After the banner, which lists the fixture tokens for a developer alone.
  const stdout = result.stdout.split('Ctrl-C stops it.')[1] ?? ''
  const lines = stdout
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"url":"/api/'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
  expect(lines).toHaveLength(2)
  // Written when each answer is done: in either order.
  const list = lines.find((line) => line['url'] === '/api/users?limit=2')
  const me = lines.find((line) => line['url'] === '/api/users/me')
  expect(list).toMatchObject({ method: 'GET', statusCode: 200, role: 'CLIENT_ADMIN' })
  expect(typeof list?.['responseTime']).toBe('number')
  expect(me).toMatchObject({ statusCode: 401 })
  expect(me).not.toHaveProperty('role')
  expect(stdout).not.toContain('admin-token')
  expect(stdout).not.toContain('hidden')
  expect(stdout).not.toContain('"req"')
})

test('--quiet and --log-level warn: no request lines; a bad level says which exist', async () => {
  for (const args of [['--quiet'], ['--log-level', 'warn']]) {
    const { cli, url } = await startCli(args)
    await fetch(`${url}/api/users/me`, { headers: { authorization: 'Bearer owner-token' } })
    cli.kill('SIGTERM')
    expect((await cli).stdout).not.toContain('/api/users/me 200')
  }
  const refused = await runCli(['mock', '--log-level', 'loud'])
  expect(refused.exitCode).toBe(2)
  expect(refused.stderr).toContain('--log-level must be one of debug, info, warn, error, silent')
})
