import { spawn } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
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

/**
 * The mock with its stdout a pipe nobody reads until a second after SIGTERM (then `cat` does): `requests`
 * answered `GET /me`s, the request lines read in the end, and how long the mock took to exit once they
 * began to be read. A shell holds the pipe: a pipe to this process would be read by Node in the background.
 */
async function onAnUnreadPipe(requests: number): Promise<{ statuses: number[]; lines: string[]; exitMs: number }> {
  const port = await freePort()
  const dir = await mkdtemp(join(tmpdir(), 'users-api-kit-pipe-'))
  const [pidFile, readNow] = [join(dir, 'pid'), join(dir, 'read-now')]
  const script =
    '{ node "$0" mock --port "$1" & echo $! > "$2"; wait; } | { while [ ! -e "$3" ]; do sleep 0.05; done; exec cat; }'
  const shell = spawn('sh', ['-c', script, MAIN, String(port), pidFile, readNow], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let stdout = ''
  shell.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  const closed = new Promise((resolve) => shell.once('close', resolve))
  const statuses: number[] = []
  let exitMs = Number.NaN
  let pid: number | undefined
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
    pid = Number(await readFile(pidFile, 'utf8'))
    for (let index = 0; index < requests; index++) {
      const answer = await fetch(url, {
        headers: { authorization: 'Bearer owner-token' },
        signal: AbortSignal.timeout(WITHIN_MS),
      })
      await answer.arrayBuffer()
      statuses.push(answer.status)
    }
    process.kill(pid, 'SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    const reading = performance.now()
    await writeFile(readNow, '')
    await closed
    exitMs = performance.now() - reading
  } finally {
    // Gone already, unless the test failed on the way.
    if (pid !== undefined) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // ESRCH: it had exited
      }
    }
    shell.kill('SIGKILL')
  }
  const lines = stdout.split('\n').filter((line) => line.startsWith('{') && line.includes('"statusCode":200'))
  return { statuses, lines, exitMs }
}

test('on a pipe nobody reads: the mock keeps answering, and writes every line out when it stops', async () => {
  // A pipe holds 64 KiB; 2,000 lines are ~500 KB: the rest waits in the mock's memory.
  const { statuses, lines } = await onAnUnreadPipe(2_000)
  expect(statuses.filter((status) => status !== 200)).toEqual([])
  // Every one: pino's own destination could lose a line where the pipe filled up, and process.exit() drops what
  // process.stdout still holds for a pipe (~250 lines came through before the mock waited for it to drain).
  expect(lines).toHaveLength(2_000)
}, 60_000)

test('a few KB queued for a pipe at the stop: written, and the mock exits as soon as they are', async () => {
  // 345 lines of ~215 bytes: ~8 KB past the pipe's 64 KiB, short of the stream's high-water mark: no 'drain'.
  const { lines, exitMs } = await onAnUnreadPipe(345)
  expect(lines).toHaveLength(345)
  expect(exitMs).toBeLessThan(3_000)
}, 60_000)

test('a reader that goes away (| head -c 100): the mock keeps answering, and stops at once when told', async () => {
  const port = await freePort()
  const pidFile = join(await mkdtemp(join(tmpdir(), 'users-api-kit-pipe-')), 'pid')
  const script = '{ node "$0" mock --port "$1" & echo $! > "$2"; wait; } | head -c 100 > /dev/null'
  const shell = spawn('sh', ['-c', script, MAIN, String(port), pidFile], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  shell.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const closed = new Promise((resolve) => shell.once('close', resolve))
  let pid: number | undefined
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
    pid = Number(await readFile(pidFile, 'utf8'))
    const statuses: number[] = []
    for (let index = 0; index < 50; index++) {
      const answer = await fetch(url, {
        headers: { authorization: 'Bearer owner-token' },
        signal: AbortSignal.timeout(WITHIN_MS),
      })
      await answer.arrayBuffer()
      statuses.push(answer.status)
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([])
    const stopping = performance.now()
    process.kill(pid, 'SIGTERM')
    await closed
    expect(performance.now() - stopping).toBeLessThan(3_000)
    expect(stderr).not.toContain('EPIPE')
  } finally {
    if (pid !== undefined) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // ESRCH: it had exited
      }
    }
    shell.kill('SIGKILL')
  }
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
