import { spawn } from 'node:child_process'
import { closeSync, existsSync, openSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { get as httpGet } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createMockApp, serverUrl } from '../../src/server/start-mock.js'
import { MUTANTS } from '../support/broken-servers/mutants.js'
import { buildCliOnce, killRunningClis, MAIN, runCli, WITHIN_MS, type Cli } from '../support/cli-mock-process.js'
import { freePort } from '../support/free-port.js'

/** A device whose every write fails as a full disk's does (Linux); elsewhere those tests are skipped, and say so. */
const NO_DEV_FULL = !existsSync('/dev/full')
const NO_DEV_FULL_WHY = NO_DEV_FULL ? ' (skipped: this system has no /dev/full)' : ''

// `users-api-kit proxy` as QA runs it in CI: in front of a backend, the end-to-end tests through it,
// stopped with a signal; the reports written, and the exit code saying whether the backend broke the
// contract.

beforeAll(buildCliOnce, 120_000)
afterEach(killRunningClis)

interface Backend {
  url: string
  close(): Promise<unknown>
}

/** The mock, broken by one mutant when named. */
async function startBackend(mutantName?: string): Promise<Backend> {
  const { app, state, mock } = await createMockApp({ users: 4 })
  MUTANTS.find((mutant) => mutant.name === mutantName)?.apply({ app, state, mock })
  await app.listen({ port: 0, host: '127.0.0.1' })
  return { url: serverUrl(app), close: () => app.close() }
}

interface RunningCli {
  cli: Cli
  url: string
  stdout: () => string
  stderr: () => string
}

/** `users-api-kit proxy --port 0 …`, once its banner names where it listens. */
async function startProxyCli(args: string[]): Promise<RunningCli> {
  const cli = runCli(['proxy', '--port', '0', ...args])
  let stdout = ''
  let stderr = ''
  cli.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`No banner within ${WITHIN_MS} ms:\n${stdout}${stderr}`)),
      WITHIN_MS,
    )
    cli.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const match = /Point your app at\s+(http:\/\/\S+)/.exec(stdout)
      if (match?.[1]) {
        clearTimeout(timer)
        resolve(match[1])
      }
    })
    void cli.then((result) => reject(new Error(`The proxy exited (${result.exitCode}):\n${stdout}${stderr}`)))
  })
  return { cli, url, stdout: () => stdout, stderr: () => stderr }
}

/** A GET whose Host header the test chooses (fetch sends the URL's own). */
function statusWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: { host } }, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
    }).on('error', reject)
  })
}

async function get(url: string, token: string, headers: Record<string, string> = {}): Promise<number> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}`, ...headers } })
  await response.arrayBuffer()
  return response.status
}

describe('users-api-kit proxy', () => {
  test('--help names every flag and the exit codes; exit 0', async () => {
    const result = await runCli(['proxy', '--help'])
    expect(result.exitCode).toBe(0)
    for (const flag of [
      '--upstream',
      '--port',
      '--host',
      '--report',
      '--fail-on-violation',
      '--request-timeout',
      '--max-response-bytes',
    ])
      expect(result.stdout).toContain(flag)
    expect(result.stdout).toContain('Exit codes: 0 stopped')
    expect(result.stdout).toContain('1 with --fail-on-violation when')
    expect(result.stdout).toContain('2 the proxy could not start')
  })

  test.each([
    [[], '--upstream URL is required'],
    [['--upstream', 'ftp://example.test'], 'must be http or https'],
    [['--upstream', 'http://user:pw@example.test'], 'may not hold credentials'],
    [['--upstream', 'http://127.0.0.1:1', '--port', '99999'], '--port must be an integer from 0 to 65535'],
  ])('%j cannot start: exit 2, saying why', async (args, message) => {
    const result = await runCli(['proxy', ...args])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain(message)
  })

  test('a port in use: exit 2, naming another', async () => {
    const first = await startProxyCli(['--upstream', 'http://127.0.0.1:9'])
    const port = new URL(first.url).port
    const second = await runCli(['proxy', '--upstream', 'http://127.0.0.1:9', '--port', port])
    expect(second.exitCode).toBe(2)
    expect(second.stderr).toContain(`Port ${port} is in use`)
  })

  test('--fail-on-violation: a broken backend is one line a violation on stderr, the reports at Ctrl-C, exit 1', async () => {
    const backend = await startBackend('lets-bots-list')
    const directory = await mkdtemp(join(tmpdir(), 'proxy-report-'))
    try {
      const proxy = await startProxyCli(['--upstream', backend.url, '--report', directory, '--fail-on-violation'])
      expect(await get(`${proxy.url}/api/users/me`, 'bot-token')).toBe(200)
      expect(await get(`${proxy.url}/api/users`, 'bot-token')).toBe(200)
      expect(await get(`${proxy.url}/api/users?limit=0`, 'owner-token')).toBe(400) // the client's own mistake
      await expect.poll(() => proxy.stderr(), { timeout: WITHIN_MS }).toContain('permission-table-holds')
      const lines = proxy.stderr().trim().split('\n')
      expect(lines).toEqual([
        expect.stringMatching(
          /^users-api-kit proxy: ✗ \[permission-table-holds\] §3\.list\.refuses GET \/api\/users → 200: Received: 200/,
        ),
      ])
      proxy.cli.kill('SIGINT')
      const result = await proxy.cli
      expect(result.exitCode).toBe(1)
      expect(proxy.stdout()).toContain(
        "3 exchanges, 3 of the users API checked: 1 violation, 1 of the clients' own mistakes, 0 not checked.",
      )
      expect(proxy.stdout()).toContain('✗ [permission-table-holds] 1×')
      const junit = await readFile(join(directory, 'users-api-kit-proxy.xml'), 'utf8')
      expect(junit).toMatch(/<testsuites name="users-api-kit proxy" tests="\d+" failures="1"/)
      expect(junit).toMatch(
        /name="\[permission-table-holds\][^"]*" time="0">\s*<failure type="violation" message="1 answer broke it">/,
      )
      const json = await readFile(join(directory, 'users-api-kit-proxy.json'), 'utf8')
      expect(JSON.parse(json).counts.violations).toBe(1)
      // Tokens stay out of every report.
      for (const text of [junit, json, proxy.stdout(), proxy.stderr()]) expect(text).not.toContain('bot-token')
    } finally {
      await backend.close()
      await rm(directory, { recursive: true, force: true })
    }
  }, 60_000)

  test('its totals count in words that agree: 1 exchange', async () => {
    const backend = await startBackend()
    try {
      const proxy = await startProxyCli(['--upstream', backend.url])
      expect(await get(`${proxy.url}/api/users/me`, 'owner-token')).toBe(200)
      proxy.cli.kill('SIGTERM')
      await proxy.cli
      expect(proxy.stdout()).toContain('users-api-kit proxy: 1 exchange, 1 of the users API checked: 0 violations,')
    } finally {
      await backend.close()
    }
  }, 60_000)

  test('a correct backend with --fail-on-violation, or a broken one without it: exit 0 at SIGTERM', async () => {
    for (const [mutant, flags] of [
      [undefined, ['--fail-on-violation']],
      ['lets-bots-list', []],
    ] as const) {
      const backend = await startBackend(mutant)
      try {
        const proxy = await startProxyCli(['--upstream', backend.url, ...flags])
        await get(`${proxy.url}/api/users/me`, 'bot-token')
        await get(`${proxy.url}/api/users`, 'bot-token')
        proxy.cli.kill('SIGTERM')
        expect((await proxy.cli).exitCode).toBe(0)
      } finally {
        await backend.close()
      }
    }
  }, 60_000)

  test.skipIf(NO_DEV_FULL)(
    `an output that cannot be written (a full disk: /dev/full): the proxy works, writes its reports and exits 1 on a violation, said once on stderr${NO_DEV_FULL_WHY}`,
    async () => {
      const backend = await startBackend('lets-bots-list')
      const directory = await mkdtemp(join(tmpdir(), 'proxy-report-'))
      const port = await freePort()
      const full = openSync('/dev/full', 'w')
      const args = [
        'proxy',
        '--port',
        String(port),
        '--upstream',
        backend.url,
        '--report',
        directory,
        '--fail-on-violation',
      ]
      const proxy = spawn('node', [MAIN, ...args], { stdio: ['ignore', full, 'pipe'] })
      closeSync(full)
      let stderr = ''
      proxy.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      const exited = new Promise<number | null>((resolve) => proxy.once('exit', resolve))
      try {
        const url = `http://127.0.0.1:${port}`
        await expect
          .poll(() => get(`${url}/api/users/me`, 'bot-token').catch(() => 0), { timeout: WITHIN_MS })
          .toBe(200)
        expect(await get(`${url}/api/users`, 'bot-token')).toBe(200)
        await expect.poll(() => stderr, { timeout: WITHIN_MS }).toContain('permission-table-holds')
        proxy.kill('SIGTERM')
        expect(await exited).toBe(1)
        expect(stderr.match(/cannot write to its output \(ENOSPC\)/g)).toHaveLength(1)
        expect(JSON.parse(await readFile(join(directory, 'users-api-kit-proxy.json'), 'utf8')).counts.violations).toBe(
          1,
        )
      } finally {
        proxy.kill('SIGKILL')
        await backend.close()
        await rm(directory, { recursive: true, force: true })
      }
    },
    60_000,
  )

  test("its own routes: the findings as JSON; a page of another site's name is refused (DNS rebinding)", async () => {
    const backend = await startBackend()
    try {
      const proxy = await startProxyCli(['--upstream', backend.url])
      const answer = await fetch(`${proxy.url}/__proxy/violations`)
      expect(answer.status).toBe(200)
      expect(await answer.json()).toMatchObject({ counts: { exchanges: 0, violations: 0 }, findings: [] })
      expect(await statusWithHost(`${proxy.url}/__proxy/violations`, 'attacker.example')).toBe(403)
      expect(await statusWithHost(`${proxy.url}/__proxy/violations`, 'localhost')).toBe(200)
      expect((await fetch(`${proxy.url}/__proxy/nothing`)).status).toBe(404)
    } finally {
      await backend.close()
    }
  }, 30_000)
})
