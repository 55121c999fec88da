import { spawn } from 'node:child_process'
import { closeSync, existsSync, openSync } from 'node:fs'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, expect, test } from 'vitest'
import { loggerOptions } from '../../src/server/request-log.js'
import { freePort } from '../support/free-port.js'
import { startGroup, stopGroup } from '../support/process-groups.js'
import { buildCliOnce, killRunningClis, MAIN, ROOT, runCli, startCli, WITHIN_MS } from '../support/cli-mock-process.js'

/** A device whose every write fails as a full disk's does (Linux); elsewhere those tests are skipped, and say so. */
const NO_DEV_FULL = !existsSync('/dev/full')
const NO_DEV_FULL_WHY = NO_DEV_FULL ? ' (skipped: this system has no /dev/full)' : ''

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
 * The mock with its stdout piped into `reader` (a shell command; "$3" and on are `readerArgs`), the pipeline one
 * process group that `stopGroup` ends whole. Resolves once the mock answers. A shell holds the pipe: a pipe to
 * this process would be read by Node in the background.
 */
async function mockPipedInto(reader: string, readerArgs: string[] = []) {
  const port = await freePort()
  const pidFile = join(await mkdtemp(join(tmpdir(), 'users-api-kit-pipe-')), 'pid')
  const script = `{ node "$0" mock --port "$1" & echo $! > "$2"; wait; } | ${reader}`
  const group = startGroup('sh', ['-c', script, MAIN, String(port), pidFile, ...readerArgs], { cwd: ROOT })
  const url = `http://127.0.0.1:${port}/api/users/me`
  const answers = () =>
    fetch(url).then(
      (answer) => answer.status === 401,
      () => false,
    )
  for (const started = Date.now(); !(await answers());) {
    if (Date.now() - started > WITHIN_MS) {
      await stopGroup(group.pid)
      throw new Error(`The mock did not answer on port ${port} within ${WITHIN_MS} ms:\n${group.output()}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { url, group, mockPid: Number(await readFile(pidFile, 'utf8')) }
}

/** `count` GET /api/users/me as the owner, one after another: their statuses. */
async function getMe(url: string, count: number): Promise<number[]> {
  const statuses: number[] = []
  for (let index = 0; index < count; index++) {
    const answer = await fetch(url, {
      headers: { authorization: 'Bearer owner-token' },
      signal: AbortSignal.timeout(WITHIN_MS),
    })
    await answer.arrayBuffer()
    statuses.push(answer.status)
  }
  return statuses
}

/**
 * `requests` answered into a pipe nobody reads until a second after SIGTERM (then `cat` does): their
 * statuses, the request lines read in the end, and how long the mock took to exit once they began to be read.
 */
async function onAnUnreadPipe(requests: number): Promise<{ statuses: number[]; lines: string[]; exitMs: number }> {
  const readNow = join(await mkdtemp(join(tmpdir(), 'users-api-kit-pipe-')), 'read-now')
  const { url, group, mockPid } = await mockPipedInto('{ while [ ! -e "$3" ]; do sleep 0.05; done; exec cat; }', [
    readNow,
  ])
  try {
    const statuses = await getMe(url, requests)
    process.kill(mockPid, 'SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    const reading = performance.now()
    await writeFile(readNow, '')
    await group.process
    const exitMs = performance.now() - reading
    const lines = group
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{') && line.includes('"statusCode":200'))
    return { statuses, lines, exitMs }
  } finally {
    await stopGroup(group.pid)
  }
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
  // Waiting for a 'drain' that never comes took the whole 5 s budget: well under it means it did not wait.
  expect(exitMs).toBeLessThan(4_500)
}, 60_000)

test("a pipe never read and a request still waiting: the stop ends within 9 s, before docker stop's SIGKILL at 10", async () => {
  // The reader holds the pipe and never reads: 2,000 lines fill it, the rest waits in the mock.
  const { url, group, mockPid } = await mockPipedInto('sleep 60')
  try {
    await getMe(url, 2_000)
    const held = fetch(url, { headers: { authorization: 'Bearer owner-token', prefer: 'delay=60000' } }).catch(
      () => undefined,
    )
    await new Promise((resolve) => setTimeout(resolve, 200))
    const stopping = performance.now()
    process.kill(mockPid, 'SIGTERM')
    while (isAlive(mockPid)) await new Promise((resolve) => setTimeout(resolve, 50))
    const stopMs = performance.now() - stopping
    // 5 s for the waiting request's connection, what is left of the 9 s for the lines nobody takes.
    expect(stopMs).toBeGreaterThan(8_000)
    // docker stop's SIGKILL: the requirement itself, whatever the machine's load.
    expect(stopMs).toBeLessThan(10_000)
    await held
  } finally {
    await stopGroup(group.pid)
  }
}, 60_000)

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

test.skipIf(NO_DEV_FULL)(
  `an output that cannot be written (a full disk: /dev/full): the mock starts and answers, and says so once on stderr${NO_DEV_FULL_WHY}`,
  async () => {
    const port = await freePort()
    const full = openSync('/dev/full', 'w')
    const mock = spawn('node', [MAIN, 'mock', '--port', String(port)], { stdio: ['ignore', full, 'pipe'] })
    closeSync(full)
    let stderr = ''
    mock.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    try {
      const url = `http://127.0.0.1:${port}/api/users/me`
      let statuses: number[] = []
      for (const started = Date.now(); statuses.length === 0 && Date.now() - started < WITHIN_MS;) {
        statuses = await getMe(url, 3).catch(() => [])
        if (statuses.length === 0) await new Promise((resolve) => setTimeout(resolve, 50))
      }
      expect({ statuses, stderr }).toEqual({ statuses: [200, 200, 200], stderr: expect.stringContaining('ENOSPC') })
      expect(stderr.match(/cannot write to its output/g)).toHaveLength(1)
    } finally {
      mock.kill('SIGKILL')
    }
  },
  60_000,
)

test('a reader that goes away (| head -c 100): the mock keeps answering, and stops at once when told', async () => {
  const { url, group, mockPid } = await mockPipedInto('head -c 100 > /dev/null')
  try {
    expect((await getMe(url, 50)).filter((status) => status !== 200)).toEqual([])
    const stopping = performance.now()
    process.kill(mockPid, 'SIGTERM')
    await group.process
    expect(performance.now() - stopping).toBeLessThan(3_000)
    expect(group.output()).not.toContain('EPIPE')
  } finally {
    await stopGroup(group.pid)
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
