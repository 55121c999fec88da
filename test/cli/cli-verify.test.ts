import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildCliOnce, MAIN } from '../support/cli-mock-process.js'
import { DISPOSABLE_USERS_NEEDED } from '../../src/target/disposable-slots.js'
import type { MockState } from '../../src/domain/mock-state.js'
import { createTarget, type MockTarget } from '../../src/mock-instance/create-target.js'
import { createMockApp, serverUrl } from '../../src/server/start-mock.js'
import { MUTANTS } from '../support/broken-servers/mutants.js'

// `users-api-kit verify`, as users run it: the built CLI in its own process, against real listening
// mocks. Each run of the suite takes seconds, so one run answers several questions where it honestly can.

/**
 * A bound on a run that hangs, not on speed: a run of the whole suite takes ~5 s alone, several times that
 * on a 2-core machine busy with other test files (or another npm test beside this one).
 */
const SUITE_RUN_MS = 180_000

let directory: string

beforeAll(async () => {
  await buildCliOnce()
  directory = await mkdtemp(join(tmpdir(), 'cli-verify-'))
}, 120_000)

afterAll(async () => {
  await rm(directory, { recursive: true, force: true })
})

/**
 * Runs `users-api-kit verify ARGS` in the temporary directory, so relative paths are the user's. CI is
 * unset unless `env` sets it (it turns --strict on): the parent's CI must not decide a test's outcome.
 */
async function verify(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ exitCode: number; stdout: string; stderr: string; all: string }> {
  const result = await execa('node', [MAIN, 'verify', ...args], {
    cwd: directory,
    reject: false,
    all: true,
    env: { FORCE_COLOR: '0', NO_COLOR: '1', CI: '', ...env },
    timeout: SUITE_RUN_MS,
  })
  return { exitCode: result.exitCode ?? -1, stdout: result.stdout, stderr: result.stderr, all: result.all }
}

let files = 0

/** Writes a file in the temporary directory and answers its name there. */
async function writeTemp(extension: string, content: string): Promise<string> {
  const name = `file-${(files += 1)}.${extension}`
  await writeFile(join(directory, name), content)
  return name
}

/** A mock on a free port, broken by the mutant named when given, and a target for it. */
async function startServer(options: { mutant?: string; disposable?: number; latencyMs?: number } = {}) {
  const latency = options.latencyMs === undefined ? undefined : { min: options.latencyMs, max: options.latencyMs }
  const { app, state, mock } = await createMockApp({ users: 8, latency })
  if (options.mutant) {
    const mutant = MUTANTS.find((candidate) => candidate.name === options.mutant)
    if (!mutant) throw new Error(`No mutant named ${options.mutant}`)
    mutant.apply({ app, state, mock })
  }
  await app.listen({ port: 0, host: '127.0.0.1' })
  const url = serverUrl(app)
  const target = createTarget(state.store, url, options.disposable ?? DISPOSABLE_USERS_NEEDED)
  return { url, target, close: () => app.close() }
}

/** A server that is no users-api-kit mock: 404 for everything. */
async function startOtherServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.statusCode = 404
    response.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('not listening on TCP')
  return { url: `http://127.0.0.1:${address.port}`, server }
}

/** A port nothing listens on: one the system just handed out and got back. */
async function closedPort(): Promise<number> {
  const { url, server } = await startOtherServer()
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
  return Number(new URL(url).port)
}

interface JsonReport {
  numPassedTests: number
  numFailedTests: number
  numPendingTests: number
  numTotalTests: number
  testResults: Array<{ assertionResults: Array<{ fullName: string; status: string }> }>
}

async function readJsonReport(name: string): Promise<JsonReport> {
  return JSON.parse(await readFile(join(directory, name), 'utf8')) as JsonReport
}

function namesOf(report: JsonReport, status: string): string[] {
  return report.testResults.flatMap((file) =>
    file.assertionResults.filter((test) => test.status === status).map((test) => test.fullName),
  )
}

async function stateOf(url: string): Promise<MockState> {
  return (await (await fetch(`${url}/__mock/state`)).json()) as MockState
}

const SUMMARY = /(\d+) checks? passed, (\d+) failed, (\d+) skipped\./

// Each of these is a CLI start of about half a second: two at a time (vitest.config.ts maxConcurrency).
describe.concurrent('users-api-kit verify: what could not start is exit code 2, before any check runs', () => {
  test('neither --target nor --base-url: exit code 2, naming both', async () => {
    const result = await verify([])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain('--target')
    expect(result.stderr).toContain('--base-url')
    expect(result.all).not.toMatch(SUMMARY)
  })

  test('both --target and --base-url: exit code 2, asking for exactly one', async () => {
    const result = await verify(['--target', 'target.json', '--base-url', 'http://127.0.0.1:4010'])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain('exactly one of --target FILE and --base-url URL')
  })

  test('--target /nonexistent.json: exit code 2 and a message naming the file', async () => {
    const result = await verify(['--target', '/nonexistent.json'])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain('/nonexistent.json')
    expect(result.all).not.toMatch(SUMMARY)
  })

  test('a target file whose baseUrl is not an http URL: exit code 2 naming the file and /baseUrl', async () => {
    const file = await writeTemp('json', JSON.stringify({ baseUrl: 'ftp://127.0.0.1:4010', actors: {} }))
    const result = await verify(['--target', file])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain(file)
    expect(result.stderr).toContain('/baseUrl')
    expect(result.all).not.toMatch(SUMMARY)
  })

  test('--base-url of a closed port: exit code 2, cannot reach it, and how to start the mock', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`
    const result = await verify(['--base-url', url])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain(`Cannot reach ${url} (ECONNREFUSED)`)
    expect(result.stderr).toContain('npx users-api-kit mock')
  })

  test('--base-url of a server that is no mock: exit code 2, and a pointer to --target', async () => {
    const { url, server } = await startOtherServer()
    try {
      const result = await verify(['--base-url', url])
      expect(result.exitCode).toBe(2)
      expect(result.stderr).toContain(`${url}/__mock/target answered 404`)
      expect(result.stderr).toContain('--target FILE')
      expect(result.all).not.toMatch(SUMMARY)
    } finally {
      server.close()
    }
  })

  test('--spec of a document that is not OpenAPI 3.1: exit code 2 naming the file', async () => {
    // The target answers, so only the document can stop the run.
    const { url, server } = await startOtherServer()
    try {
      const target = await writeTemp('json', JSON.stringify({ baseUrl: url, actors: {} }))
      const spec = await writeTemp('yaml', 'openapi: 3.0.0\n')
      const result = await verify(['--target', target, '--spec', spec])
      expect(result.exitCode).toBe(2)
      expect(result.stderr).toContain(spec)
      expect(result.stderr).toContain('openapi: 3.0.0')
      expect(result.all).not.toMatch(SUMMARY)
    } finally {
      server.close()
    }
  })

  test('--only profile: exit code 2, a usage error that says what --only takes', async () => {
    const result = await verify(['--base-url', 'http://127.0.0.1:4010', '--only', 'profile'])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain('--only takes "core" (got "profile")')
    expect(result.stderr).toContain('--help')
  })

  test('--help: exit code 0 and the usage, with every option and the exit codes', async () => {
    const result = await verify(['--help'])
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toContain('users-api-kit verify --target target.json')
    const options = ['--base-url', '--spec', '--only', '--read-only', '--strict', '--no-strict', '--out', '--junit']
    for (const option of [...options, '--json', '--grep', '--bail']) {
      expect(result.stdout).toContain(option)
    }
    expect(result.stdout).toContain('Exit codes: 0')
  })
})

describe('users-api-kit verify against a mock', () => {
  test(
    '--base-url of a mock: exit code 0, the summary, and JUnit and JSON reports where the user asked',
    async () => {
      const server = await startServer()
      try {
        // Relative report paths: they land in the user's directory, not in the kit's contract-tests/.
        const result = await verify(['--base-url', server.url, '--junit', 'out.xml', '--json', 'out.json'])
        expect(result.exitCode, result.all).toBe(0)
        const [, passed, failed, skipped] = SUMMARY.exec(result.stdout) ?? []
        expect(Number(passed)).toBeGreaterThan(100)
        expect([failed, skipped]).toEqual(['0', '0'])

        const report = await readJsonReport('out.json')
        expect(report.numPassedTests).toBe(Number(passed))
        expect(report.numFailedTests).toBe(0)
        const junit = await readFile(join(directory, 'out.xml'), 'utf8')
        expect(junit.match(/<testcase /g)).toHaveLength(report.numTotalTests)
        expect(junit).toContain('[core] a missing Authorization header is a 401')
        expect(junit).not.toContain('<failure')
        // Where each report went, by the name of its format.
        expect(result.stdout).toContain(`JUnit report written to ${join(directory, 'out.xml')}`)
        expect(result.stdout).not.toContain('JUNIT')
      } finally {
        await server.close()
      }
    },
    SUITE_RUN_MS,
  )

  test(
    'a broken server: exit code 1, the failed check reads as a bug report, and JUnit has a <failure>',
    async () => {
      const server = await startServer({ mutant: 'drops-www-authenticate' })
      try {
        const target = await writeTemp('json', JSON.stringify(server.target))
        const result = await verify(['--target', target, '--junit', 'broken.xml'])
        expect(result.exitCode, result.all).toBe(1)
        expect(result.stdout).toMatch(/\d+ checks? passed, [1-9]\d* failed/)
        // The failed rules first, each once with its count and first failure (request, curl); then each
        // failed check's whole report, in one piece: the rule, the request, a curl that reproduces it.
        const [summary = '', details = ''] = result.stdout.split(/^Failed checks \(\d+\), each with its report:$/m)
        expect(summary).toMatch(/^Failed rules \(\d+\), each with its first failure:$/m)
        // The check's own rule names the failure (a 401 without its header), the response-level check's after it.
        const rules = summary.split('\n').filter((line) => line.startsWith('  ✗ '))
        const about401 = rules.filter((line) => /A 401 carries WWW-Authenticate: Bearer/.test(line))
        expect(about401, summary).toHaveLength(1)
        expect(about401[0]).toMatch(/^ {2}✗ \[scenario\] A 401 carries WWW-Authenticate: Bearer.*: [1-9]\d* checks?$/)
        expect(summary).toMatch(/Reproduce: curl -i -X \w+ /)
        const lines = String.raw`(.*\n)*?`
        expect(details).toMatch(
          new RegExp(
            [
              String.raw`✗ a request without a valid Bearer token is a 401 > \[core\] a missing Authorization header is a 401 with WWW-Authenticate: Bearer\n`,
              String.raw` +\[scenario\] A 401 carries WWW-Authenticate: Bearer.*\n`,
              String.raw`${lines} +\[www-authenticate-on-401\] A 401 carries WWW-Authenticate: Bearer.*\n`,
              String.raw`${lines} +Request: +GET ${server.url}/api/users/me \(getCurrentUser\)\n`,
              String.raw`${lines} +Reproduce: curl -i -X GET ${server.url}/api/users/me\n`,
            ].join(''),
          ),
        )
        // The totals again under the reports, where a terminal leaves the reader.
        expect(result.stdout.trimEnd()).toMatch(
          /\d+ checks? passed, [1-9]\d* failed, \d+ skipped\. \(failures above\)$/,
        )
        expect(await readFile(join(directory, 'broken.xml'), 'utf8')).toContain('<failure')
      } finally {
        await server.close()
      }
    },
    SUITE_RUN_MS,
  )

  test(
    '--run-timeout: no check starts once the run has passed it, those left count as not run, and the run fails (exit 1)',
    async () => {
      // Every answer takes 150 ms: a whole run takes a minute, far past a run timeout of 3 s.
      const server = await startServer({ latencyMs: 150 })
      try {
        const target = await writeTemp('json', JSON.stringify(server.target))
        // No clock of this test's: the run's own deadline is what is bounded. The check running at it ends
        // within its own limits, and the run ends (within SUITE_RUN_MS, a bound on a hang, not on speed).
        const result = await verify(['--target', target, '--run-timeout', '3'])
        const totals = /(\d+) checks? passed, (\d+) failed, (\d+) skipped, (\d+) not run \((\d+) checks?\)\./.exec(
          result.stdout,
        )
        expect(totals, result.stdout).not.toBeNull()
        const [passed = 0, failed = 0, skipped = 0, notRun = 0, all = -1] = (totals ?? []).slice(1).map(Number)
        expect(notRun).toBeGreaterThan(100)
        expect(passed + failed + skipped + notRun).toBe(all)
        // A run that failed to check anything says so (exit 2, as for any run that verified nothing): on a busy
        // machine vitest's start alone may outlast the 3 s, so that no check starts at all.
        if (passed + failed + skipped === 0) {
          expect(result.exitCode, result.all).toBe(2)
          expect(result.all).toContain('no check ran')
        } else expect(result.exitCode, result.all).toBe(1)
        expect(result.stdout).toContain('not run: the run passed its --run-timeout')
        expect(result.stderr).toMatch(/the run passed --run-timeout \(3 s\): \d+ checks did not run, so the run fails/)
      } finally {
        await server.close()
      }
    },
    SUITE_RUN_MS,
  )

  test(
    '--read-only: exit code 0 even --strict (a choice), says how many checks it skipped and why, and leaves the state as it was',
    async () => {
      const server = await startServer()
      try {
        const target = await writeTemp('json', JSON.stringify(server.target))
        const before = await stateOf(server.url)
        const result = await verify(['--target', target, '--read-only', '--strict'])
        expect(result.exitCode, result.all).toBe(0)
        const [, passed, failed, skipped] = SUMMARY.exec(result.stdout) ?? []
        expect(Number(passed)).toBeGreaterThan(0)
        expect(failed).toBe('0')
        expect(Number(skipped)).toBeGreaterThan(0)
        expect(result.stdout).toContain(`skipped ${skipped} by choice: --read-only: this check writes`)
        expect(await stateOf(server.url)).toEqual(before)
      } finally {
        await server.close()
      }
    },
    SUITE_RUN_MS,
  )

  test(
    '--only core: only the [core] checks run, and strict mode passes the profile checks it left out (a choice)',
    async () => {
      const server = await startServer()
      try {
        const target = await writeTemp('json', JSON.stringify(server.target))
        const result = await verify(['--target', target, '--only', 'core', '--json', 'core.json'], { CI: 'true' })
        expect(result.exitCode, result.all).toBe(0)
        const report = await readJsonReport('core.json')
        const passed = namesOf(report, 'passed')
        expect(passed.length).toBeGreaterThan(10)
        expect(passed.filter((name) => !name.includes('[core]'))).toEqual([])
        // There were [profile] checks to leave out.
        expect(namesOf(report, 'skipped').some((name) => name.includes('[profile]'))).toBe(true)
      } finally {
        await server.close()
      }
    },
    SUITE_RUN_MS,
  )

  test(
    '--grep runs only the checks whose name matches, alternatives included, also with --only core',
    async () => {
      const server = await startServer()
      try {
        const target = await writeTemp('json', JSON.stringify(server.target))
        const result = await verify([
          ...['--target', target, '--only', 'core', '--json', 'grep.json'],
          ...['--grep', 'role=BOT_USER lists|role=CLIENT_OWNER lists'],
        ])
        expect(result.exitCode, result.all).toBe(0)
        expect(namesOf(await readJsonReport('grep.json'), 'passed').sort()).toEqual([
          'the list and its parameters [core] role=BOT_USER lists only users whose role is BOT_USER',
          'the list and its parameters [core] role=CLIENT_OWNER lists only users whose role is CLIENT_OWNER',
        ])
        expect(result.stdout).toMatch(/skipped \d+ by choice: not selected \(--only core, --grep\)/)
      } finally {
        await server.close()
      }
    },
    SUITE_RUN_MS,
  )

  test(
    '--grep that matches no check: exit code 2, no check ran',
    async () => {
      const server = await startServer()
      try {
        const target = await writeTemp('json', JSON.stringify(server.target))
        const result = await verify(['--target', target, '--grep', 'no check is named like this'])
        expect(result.exitCode, result.all).toBe(2)
        expect(result.stdout).toContain('0 checks passed, 0 failed')
        expect(result.stderr).toContain('no check ran')
      } finally {
        await server.close()
      }
    },
    SUITE_RUN_MS,
  )

  test(
    'a target without a bot and with 2 disposable users: --no-strict passes (exit 0) with the skip reasons; --strict fails (exit 1), naming what the target lacks',
    async () => {
      const server = await startServer({ disposable: 2 })
      try {
        const target: MockTarget = structuredClone(server.target)
        delete target.actors.bot
        const file = await writeTemp('json', JSON.stringify(target))
        const lacks = [
          'the target has no "bot" actor',
          `the target lists 2 disposable users; the suite needs ${DISPOSABLE_USERS_NEEDED}`,
        ]
        const lenient = await verify(['--target', file, '--no-strict'], { CI: 'true' })
        expect(lenient.exitCode, lenient.all).toBe(0)
        expect(lenient.stdout).toMatch(/\d+ checks? passed, 0 failed, [1-9]\d* skipped/)
        const skipLines = lenient.stdout.split('\n').filter((line) => /^ {2}skipped \d+: /.test(line))
        expect(skipLines.map((line) => line.replace(/^ {2}skipped \d+: /, '')).sort()).toEqual([...lacks].sort())
        expect(lenient.stderr).not.toContain('strict')

        const strict = await verify(['--target', file, '--strict'])
        expect(strict.exitCode, strict.all).toBe(1)
        expect(strict.stdout).toMatch(/\d+ checks? passed, 0 failed, [1-9]\d* skipped/)
        expect(strict.stderr).toMatch(/strict: \d+ checks were skipped for what the target lacks, so the run fails/)
        for (const lack of lacks) expect(strict.stderr).toContain(`  - ${lack} (`)
      } finally {
        await server.close()
      }
    },
    SUITE_RUN_MS,
  )
})

describe('users-api-kit verify: a run that skipped most of the suite', () => {
  test(
    'a target with a base URL alone: its summary starts by saying how few checks ran, why the others did not, and that this is no verdict (exit 0, as documented)',
    async () => {
      const server = await startServer()
      try {
        const file = await writeTemp('json', JSON.stringify({ baseUrl: server.target.baseUrl }))
        const result = await verify(['--target', file, '--no-strict'])
        expect(result.exitCode, result.all).toBe(0)
        const [, passed, failed, skipped] = SUMMARY.exec(result.stdout) ?? []
        expect(Number(skipped)).toBeGreaterThan(Number(passed) + Number(failed))
        const summary = result.stdout.slice(result.stdout.lastIndexOf('\n\n') + 2).split('\n')
        expect(summary[0]).toMatch(
          new RegExp(
            `^users-api-kit verify: only ${Number(passed) + Number(failed)} of \\d+ checks ran, ${skipped} were skipped \\(\\d+: the target has no "\\w+" actor.*\\)\\. This run is no verdict on the backend's conformance`,
          ),
        )
        expect(summary[1]).toMatch(SUMMARY)
      } finally {
        await server.close()
      }
    },
    SUITE_RUN_MS,
  )
})

describe("users-api-kit verify: the target's inactive users", () => {
  test(
    'without them, their checks are skipped by choice (strict passes); an inactive token whose user is ACTIVE now is a lack, not a failure',
    async () => {
      const server = await startServer()
      try {
        // With a check that runs: a run where no check ran is exit 2, whatever the reasons.
        const grep = ['--grep', 'user the target names is a 401|an unknown token is a 401 with']
        const without: MockTarget = structuredClone(server.target)
        delete without.inactive
        const chosen = await verify(['--target', await writeTemp('json', JSON.stringify(without)), '--strict', ...grep])
        expect(chosen.exitCode, chosen.all).toBe(0)
        expect(chosen.stdout).toMatch(/1 check passed, 0 failed, \d+ skipped/)
        expect(chosen.stdout).toContain('by choice: the target names no inactive.invited')

        // A token handed out as INVITED whose user has since accepted: the target is out of date.
        const stale: MockTarget = structuredClone(server.target)
        stale.inactive = { ...stale.inactive, invited: { token: server.target.actors.viewer?.token ?? '' } }
        const lacking = await verify([
          '--target',
          await writeTemp('json', JSON.stringify(stale)),
          '--no-strict',
          ...grep,
        ])
        expect(lacking.exitCode, lacking.all).toBe(0)
        expect(lacking.stdout).toMatch(/2 checks passed, 0 failed, \d+ skipped/)
        expect(lacking.stdout).toContain("the target's inactive.invited is the token of a user who is ACTIVE now")
      } finally {
        await server.close()
      }
    },
    SUITE_RUN_MS,
  )
})

describe('users-api-kit verify: strict by default in CI', () => {
  // Four checks of who the caller is, one of them the bot's: without a bot, 3 pass and 1 is skipped.
  const grep = ['--grep', 'GET /api/users/me with the']

  test.each([
    [{ CI: 'true' }, [], 1],
    [{ CI: '1' }, [], 1],
    [{ CI: 'false' }, [], 0],
    [{ CI: '0' }, [], 0],
    [{}, [], 0],
    [{ CI: 'true' }, ['--no-strict'], 0],
    [{}, ['--strict'], 1],
  ])(
    'env %j and flags %j: a skip for a missing bot exits %i',
    async (env: Record<string, string>, flags: string[], exitCode: number) => {
      const server = await startServer()
      try {
        const target: MockTarget = structuredClone(server.target)
        delete target.actors.bot
        const file = await writeTemp('json', JSON.stringify(target))
        const result = await verify(['--target', file, ...grep, ...flags], env)
        expect(result.stdout).toContain('3 checks passed, 0 failed, ')
        expect(result.stdout).toContain('skipped 1: the target has no "bot" actor')
        expect(result.exitCode, result.all).toBe(exitCode)
        if (exitCode === 1) expect(result.stderr).toContain('  - the target has no "bot" actor (1 check)')
      } finally {
        await server.close()
      }
    },
    SUITE_RUN_MS,
  )
})

describe('users-api-kit verify: --bail and --out', () => {
  test(
    '--bail stops at the first failure and counts the checks that did not run: the totals add up to every check',
    async () => {
      const server = await startServer({ mutant: 'drops-www-authenticate' })
      try {
        const target = await writeTemp('json', JSON.stringify(server.target))
        const result = await verify(['--target', target, '--bail', '--json', 'bail.json', '--junit', 'bail.xml'])
        expect(result.exitCode, result.all).toBe(1)
        const totals = /(\d+) checks? passed, (\d+) failed, (\d+) skipped, (\d+) not run \((\d+) checks?\)\./.exec(
          result.stdout,
        )
        expect(totals, result.stdout.slice(-2000)).not.toBeNull()
        const [passed = NaN, failed = NaN, skipped = NaN, notRun = NaN, all = NaN] = (totals ?? []).slice(1).map(Number)
        expect(passed + failed + skipped + notRun).toBe(all)
        // A run that failed to check anything says so (exit 2, as for any run that verified nothing): on a busy
        // machine vitest's start alone may outlast the 3 s, so that no check starts at all.
        if (passed + failed + skipped === 0) {
          expect(result.exitCode, result.all).toBe(2)
          expect(result.all).toContain('no check ran')
        } else expect(result.exitCode, result.all).toBe(1)
        expect(failed).toBeGreaterThan(0)
        expect(notRun).toBeGreaterThan(100)
        expect(result.stdout).toContain(`  ${notRun} not run: --bail stopped the run at the first failed check`)

        // Every check of the suite is in both reports, and none that did not run passes for passed.
        const report = await readJsonReport('bail.json')
        expect(report.numTotalTests).toBe(all)
        expect(report.numPassedTests).toBe(passed)
        const junit = await readFile(join(directory, 'bail.xml'), 'utf8')
        expect(junit.match(/<testcase /g)).toHaveLength(all)
        expect(junit.match(/<skipped\/>/g)).toHaveLength(skipped + notRun)
      } finally {
        await server.close()
      }
    },
    SUITE_RUN_MS,
  )

  test(
    '--out DIR writes the JUnit, JSON and HTML reports into DIR, made if missing, and every path printed is still there',
    async () => {
      const server = await startServer()
      try {
        const target = await writeTemp('json', JSON.stringify(server.target))
        const result = await verify(['--target', target, '--out', 'reports/verify'])
        expect(result.exitCode, result.all).toBe(0)
        const folder = join(directory, 'reports', 'verify')
        const names = ['users-api-kit-verify.xml', 'users-api-kit-verify.json', 'users-api-kit-verify.html']
        for (const name of names) {
          expect(result.all).toContain(join(folder, name))
          await expect(readFile(join(folder, name), 'utf8')).resolves.toMatch(/\S/)
        }
        const printed = result.all.match(/(?<=\s)\/[^\s'"]+\.(?:xml|json|html)\b/g) ?? []
        expect(printed.length).toBeGreaterThanOrEqual(3)
        for (const path of printed) await expect(readFile(path, 'utf8'), path).resolves.toMatch(/\S/)
      } finally {
        await server.close()
      }
    },
    SUITE_RUN_MS,
  )
})
