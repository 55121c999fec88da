import { spawn } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, expect, test } from 'vitest'
import { loggerOptions } from '../src/server/request-log.js'
import { freePort } from './support/free-port.js'
import { buildCliOnce, killRunningClis, MAIN, ROOT, runCli, startCli, WITHIN_MS } from './support/cli-mock-process.js'

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

test('to a file: the same JSON lines', async () => {
  const file = join(await mkdtemp(join(tmpdir(), 'users-api-kit-log-')), 'mock.log')
  // The file itself as its standard output, as `> mock.log` gives it (execa would put a pipe in between).
  const fd = openSync(file, 'w')
  const cli = spawn('node', [MAIN, 'mock', '--port', '0'], { cwd: ROOT, stdio: ['ignore', fd, 'inherit'] })
  closeSync(fd)
  const exited = new Promise((resolve) => cli.once('exit', resolve))
  try {
    let banner = ''
    for (const started = Date.now(); !banner.includes('Ctrl-C stops it.');) {
      if (Date.now() - started > WITHIN_MS) throw new Error(`No banner in ${file} within ${WITHIN_MS} ms:\n${banner}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
      banner = await readFile(file, 'utf8').catch(() => '')
    }
    const url = /API\s+(http:\/\/[^\s/]+:\d+)\/api\/users/.exec(banner)?.[1]
    await fetch(`${url}/api/users?limit=2`, { headers: { authorization: 'Bearer admin-token' } })
  } finally {
    cli.kill('SIGTERM')
    await exited
  }
  // Read once the mock has stopped: its line follows the answer, which the client may read first.
  const lines = (await readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"url":"/api/'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
  expect(lines).toEqual([expect.objectContaining({ method: 'GET', statusCode: 200, role: 'CLIENT_ADMIN' })])
})

test('JSON lines go through process.stdout (a file, /dev/null, a pipe); a terminal gets pino-pretty', () => {
  expect(loggerOptions({ level: 'info', terminal: false })).toEqual({ level: 'info', stream: process.stdout })
  expect(loggerOptions({ level: 'debug', terminal: true })).toMatchObject({
    level: 'debug',
    transport: { target: 'pino-pretty' },
  })
})

test('on a pipe nobody reads: the mock keeps answering, and writes every line out when it stops', async () => {
  // A pipe holds 64 KiB; 2,000 lines are ~500 KB: the rest waits in the mock's memory, and is written out
  // before it exits.
  const port = await freePort()
  const cli = spawn('node', [MAIN, 'mock', '--port', String(port)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = new Promise((resolve) => cli.once('exit', resolve))
  let stdout = ''
  try {
    const url = `http://127.0.0.1:${port}/api/users/me`
    for (
      const started = Date.now();
      !(await fetch(url).then(
        (answer) => answer.status === 401,
        () => false,
      ));
    ) {
      if (Date.now() - started > WITHIN_MS)
        throw new Error(`The mock did not answer on port ${port} within ${WITHIN_MS} ms.`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const statuses: number[] = []
    for (let index = 0; index < 2_000; index++) {
      const answer = await fetch(url, {
        headers: { authorization: 'Bearer owner-token' },
        signal: AbortSignal.timeout(WITHIN_MS),
      })
      await answer.arrayBuffer()
      statuses.push(answer.status)
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([])
    // Read only a second after it was told to stop: it has stopped by then, and waits to write its lines out.
    cli.kill('SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    cli.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    await exited
  } finally {
    cli.kill('SIGKILL')
    await exited
  }
  const answered = stdout.split('\n').filter((line) => line.startsWith('{') && line.includes('"statusCode":200'))
  // Every one: pino's own destination lost a line where the pipe filled up, and process.exit() drops what
  // process.stdout still holds for a pipe (~250 lines came through before the mock waited for it to drain).
  expect(answered).toHaveLength(2_000)
}, 60_000)

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
