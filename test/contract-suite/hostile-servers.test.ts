import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildCliOnce, MAIN } from '../support/cli-mock-process.js'
import { FUZZ_USAGE } from '../../src/cli/fuzz-command.js'
import { GATE_USAGE } from '../../src/cli/gate-command.js'
import { readTargetOptions } from '../../src/cli/shared-options.js'
import { VERIFY_USAGE } from '../../src/cli/verify-command.js'
import { readFindings } from '../../src/fuzz/read-findings.js'
import type { MockTarget } from '../../src/mock-instance/create-target.js'
import {
  startGarbageServer,
  startHangingServer,
  startHtmlServer,
  startRedirectElsewhereServer,
  startRedirectLoopServer,
  startHttpServer,
  startResettingServer,
  targetFor,
  type HostileServer,
} from '../support/hostile-servers.js'

// `verify` and `fuzz`, as users run them (the built CLI), against servers that are not a users API at
// all: each run must end, fail every check saying what happened, write its reports, and exit 1. Two
// runs at a time (vitest.config.ts maxConcurrency): each is a process of its own.

/** Far above what a bounded run takes (verify ~5 s, fuzz ~20 s), far below an unbounded one (minutes). */
const RUN_LIMIT_MS = 90_000

let directory: string

beforeAll(async () => {
  await buildCliOnce()
  directory = await mkdtemp(join(tmpdir(), 'hostile-servers-'))
}, 120_000)

afterAll(async () => {
  await rm(directory, { recursive: true, force: true })
})

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

let runs = 0

interface KitRun {
  exitCode: number
  timedOut: boolean
  all: string
  junit?: string
  json?: string
}

/** Runs `users-api-kit COMMAND --target FILE --junit FILE [--json FILE] ARGS` in its own process. */
async function runKit(command: 'verify' | 'fuzz', target: MockTarget, args: string[]): Promise<KitRun> {
  const prefix = join(directory, `run-${(runs += 1)}`)
  await writeFile(`${prefix}.target.json`, JSON.stringify(target))
  const reports = ['--junit', `${prefix}.xml`, ...(command === 'verify' ? ['--json', `${prefix}.json`] : [])]
  const result = await execa('node', [MAIN, command, '--target', `${prefix}.target.json`, ...reports, ...args], {
    reject: false,
    all: true,
    env: { FORCE_COLOR: '0', NO_COLOR: '1' },
    timeout: RUN_LIMIT_MS,
  })
  return {
    exitCode: result.exitCode ?? -1,
    timedOut: result.timedOut,
    all: result.all,
    junit: await readFile(`${prefix}.xml`, 'utf8').catch(() => undefined),
    json: await readFile(`${prefix}.json`, 'utf8').catch(() => undefined),
  }
}

interface JsonReport {
  numTotalTests: number
  numFailedTests: number
  testResults: Array<{ message: string; assertionResults: Array<{ status: string; failureMessages: string[] }> }>
}

interface Hostile {
  name: string
  start(): Promise<HostileServer>
  /** What every failed check of verify says (the first line of its finding and the next). */
  verifyReason: RegExp
  /** What the note after the summary says the first request got. */
  note: RegExp
  /** Whether most checks never reach it (the suite stops sending to a server that stopped answering). */
  spared?: boolean
}

const HOSTILE: Hostile[] = [
  {
    name: 'accepts connections and never answers, and stops sending to it after a few timeouts',
    start: startHangingServer,
    // The first requests time out; after 3 in a row the rest are not sent, saying the same. Without
    // that, ~200 checks × 1 s would outlast RUN_LIMIT_MS.
    verifyReason: /\[server-answers\].*\n.*Received: .*no response within 1000 ms \(timed out\)/,
    note: /got no response within 1000 ms \(timed out\)/,
    spared: true,
  },
  {
    name: 'resets every connection',
    start: startResettingServer,
    verifyReason: /\[server-answers\].*\n.*Received: the connection was reset \(ECONNRESET\)/,
    note: /got the connection was reset \(ECONNRESET\)/,
  },
  {
    name: 'answers bytes that are not HTTP',
    start: startGarbageServer,
    // llhttp's code, as node:http gives it.
    verifyReason: /\[server-answers\].*\n.*Received: an answer that is not HTTP \(HPE_INVALID_CONSTANT/,
    note: /got an answer that is not HTTP/,
  },
  {
    name: 'answers a web server page (200 text/html)',
    start: () => startHtmlServer(200),
    verifyReason:
      /\[answers-json\].*\n.*Received: 200 text\/html, an HTML page titled "Welcome to nginx!" instead of JSON/,
    note: /got 200 text\/html, an HTML page titled "Welcome to nginx!" instead of JSON/,
  },
  {
    name: 'answers a proxy error page (502 text/html)',
    start: () => startHtmlServer(502),
    verifyReason:
      /\[answers-json\].*\n.*Received: 502 text\/html, an HTML page titled "502 Bad Gateway" instead of JSON/,
    note: /got 502 text\/html, an HTML page titled "502 Bad Gateway"/,
  },
  {
    name: 'redirects every request to itself (302 loop)',
    start: startRedirectLoopServer,
    verifyReason:
      /\[no-redirects\].*\n.*Received: 302, a redirect to itself, http:\/\/127\.0\.0\.1:\d+\/api\/\S* \(a loop\), not followed/,
    note: /got 302, a redirect to itself, http:\/\/127\.0\.0\.1:\d+\/api\/users\/me \(a loop\), not followed/,
  },
]

describe.concurrent('users-api-kit verify against a hostile server: every check fails saying why, exit 1', () => {
  test.each(HOSTILE.map((hostile) => [hostile.name, hostile] as const))(
    'that %s',
    async (_name, hostile) => {
      const server = await hostile.start()
      try {
        // Short for the server that hangs (its checks wait for it); roomy for the others, whose answers
        // on a loaded machine must not be mistaken for a hang.
        const timeout = hostile.name.startsWith('accepts connections and never answers') ? '1000' : '5000'
        const run = await runKit('verify', targetFor(server.url), ['--timeout', timeout])

        expect(run.timedOut, run.all.slice(-2000)).toBe(false)
        expect(run.exitCode, run.all.slice(-2000)).toBe(1)
        const report = JSON.parse(run.json ?? '{}') as JsonReport
        expect(report.numTotalTests).toBeGreaterThan(150)
        expect(report.numFailedTests).toBe(report.numTotalTests)
        for (const file of report.testResults) {
          expect(file.message).toBe('')
          for (const check of file.assertionResults) expect(check.failureMessages[0]).toMatch(hostile.verifyReason)
        }
        expect(run.junit).toMatch(
          new RegExp(
            `<testsuites name="users-api-kit verify" tests="${report.numTotalTests}" failures="${report.numTotalTests}"`,
          ),
        )
        expect(run.all).toMatch(hostile.note)
        // One cause, said once with one example: the other reports are in the files (issue 34: 355 reports,
        // 3,642 lines, for a server that is not the users API).
        expect(run.all).toMatch(/One cause behind \d+ of the \d+ failed checks: each got /)
        expect(run.all.split('\n').length, run.all.slice(-3000)).toBeLessThan(100)
        // Each check sends at least one request; a few per test worker time out before the rest stop.
        if (hostile.spared) expect(server.hits()).toBeLessThan(report.numTotalTests / 2)
      } finally {
        await server.close()
      }
    },
    RUN_LIMIT_MS + 10_000,
  )

  test(
    'that answers 404 to every route: the cause is said once, with its count and one example',
    async () => {
      const server = await startHttpServer((_request, response) => {
        response.writeHead(404, { 'content-type': 'application/json' })
        response.end('{"error":"Not Found"}')
      })
      try {
        const run = await runKit('verify', targetFor(server.url), ['--timeout', '5000'])

        expect(run.exitCode, run.all.slice(-2000)).toBe(1)
        const report = JSON.parse(run.json ?? '{}') as JsonReport
        expect(report.numFailedTests).toBeGreaterThan(150)
        expect(run.all).toMatch(
          new RegExp(
            `One cause behind \\d+ of the ${report.numFailedTests} failed checks: each got 404 application/json`,
          ),
        )
        // One example, its curl, and where the other reports are: not a report a check.
        expect(run.all.match(/Reproduce: curl/g)?.length).toBeLessThan(10)
        expect(run.all).toMatch(/The reports of the other \d+: in .*\.xml, .*\.json\./)
        expect(run.all.split('\n').length, run.all.slice(-3000)).toBeLessThan(200)
      } finally {
        await server.close()
      }
    },
    RUN_LIMIT_MS + 10_000,
  )

  test(
    'that redirects to another port (301): every check fails naming where, and the other port gets nothing',
    async () => {
      const elsewhere = await startHtmlServer(200)
      const server = await startRedirectElsewhereServer(elsewhere.url)
      try {
        const run = await runKit('verify', targetFor(server.url), ['--timeout', '5000'])

        expect(run.exitCode, run.all.slice(-2000)).toBe(1)
        const report = JSON.parse(run.json ?? '{}') as JsonReport
        expect(report.numTotalTests).toBeGreaterThan(150)
        expect(report.numFailedTests).toBe(report.numTotalTests)
        const redirect = new RegExp(
          `Received: 301, a redirect to ${escapeRegExp(elsewhere.url)}/api/\\S*, not followed`,
        )
        for (const file of report.testResults)
          for (const check of file.assertionResults) expect(check.failureMessages[0]).toMatch(redirect)
        expect(run.junit).toMatch(/<testsuites name="users-api-kit verify"/)
        // Never followed: the owner's token never reaches the other host.
        expect(elsewhere.hits()).toBe(0)
      } finally {
        await server.close()
        await elsewhere.close()
      }
    },
    RUN_LIMIT_MS + 10_000,
  )

  test('a target nothing listens on is unreachable: exit 2, before any check', async () => {
    const server = await startHangingServer()
    await server.close()
    const run = await runKit('verify', targetFor(server.url), ['--timeout', '1000'])
    expect(run.exitCode).toBe(2)
    expect(run.all).toContain(`Cannot reach the target ${server.url} (ECONNREFUSED)`)
    expect(run.json).toBeUndefined()
  })
})

// fuzz runs the owner's reads only (--read-only, --no-stateful, one example): each run still takes
// Schemathesis's ~10 s, so one server of each kind; a reset is read as the non-HTTP answer is, on the
// same path (the unit tests below read both, from Schemathesis's own words).
const FUZZ_ARGS = ['--max-examples', '1', '--read-only', '--no-stateful', '--seed', '1']
/** Short for the server that hangs; roomy for the others, so that a slow answer is not read as a hang. */
const HANG_TIMEOUT = ['--timeout', '500']
const ANSWER_TIMEOUT = ['--timeout', '5000']

describe.concurrent('users-api-kit fuzz against a hostile server: errors that say why, a JUnit report, exit 1', () => {
  test(
    'that accepts connections and never answers: timed out, then nothing more is sent',
    async () => {
      const server = await startHangingServer()
      try {
        const run = await runKit('fuzz', targetFor(server.url), [...FUZZ_ARGS, ...HANG_TIMEOUT])

        expect(run.timedOut, run.all.slice(-3000)).toBe(false)
        expect(run.exitCode, run.all.slice(-3000)).toBe(1)
        // The guard's deadline (response-guard.ts), which the hooks count as a timeout.
        expect(run.all).toMatch(
          /Could not test — users-api-kit fuzz: GET \/api\/users got no response within 500 ms \(timed out\)/,
        )
        expect(run.all).toMatch(/Could not test — users-api-kit fuzz did not send GET .*got no response within 0\.5 s/)
        expect(run.junit).toMatch(/<error /)
        // The guard in schemathesis-hooks.py: without it, every generated case waits out its timeout.
        expect(server.hits()).toBeLessThan(20)
      } finally {
        await server.close()
      }
    },
    RUN_LIMIT_MS + 10_000,
  )

  test(
    'that answers bytes that are not HTTP: not HTTP',
    async () => {
      const server = await startGarbageServer()
      try {
        const run = await runKit('fuzz', targetFor(server.url), [...FUZZ_ARGS, ...ANSWER_TIMEOUT])

        expect(run.exitCode, run.all.slice(-3000)).toBe(1)
        expect(run.all).toMatch(
          /Could not test — users-api-kit fuzz: GET \/api\/users got an answer that is not HTTP \(HPE_/,
        )
        expect(run.junit).toMatch(/<error /)
      } finally {
        await server.close()
      }
    },
    RUN_LIMIT_MS + 10_000,
  )

  test(
    'that answers a proxy error page (502 text/html): an undocumented status, and a note saying HTML',
    async () => {
      const server = await startHtmlServer(502)
      try {
        const run = await runKit('fuzz', targetFor(server.url), [...FUZZ_ARGS, ...ANSWER_TIMEOUT])

        expect(run.exitCode, run.all.slice(-3000)).toBe(1)
        expect(run.all).toMatch(/ST103 Undocumented status code — Received: 502/)
        expect(run.all).toMatch(/Note: .*got 502 text\/html, an HTML page titled "502 Bad Gateway" instead of JSON/)
        expect(run.junit).toMatch(/<failure /)
      } finally {
        await server.close()
      }
    },
    RUN_LIMIT_MS + 10_000,
  )

  test(
    'that redirects to another port (301): the redirect is the finding, never followed',
    async () => {
      const elsewhere = await startHtmlServer(200)
      const server = await startRedirectElsewhereServer(elsewhere.url)
      try {
        const run = await runKit('fuzz', targetFor(server.url), [...FUZZ_ARGS, ...ANSWER_TIMEOUT])

        expect(run.exitCode, run.all.slice(-3000)).toBe(1)
        expect(run.all).toMatch(/ST103 Undocumented status code — Received: 301/)
        expect(run.all).toContain(`Note: The target ${server.url} accepts connections, but GET /api/users/me got 301`)
        expect(run.all).toContain(`a redirect to ${elsewhere.url}/api/users/me, not followed`)
        expect(run.junit).toMatch(/<failure /)
        expect(elsewhere.hits()).toBe(0)
      } finally {
        await server.close()
        await elsewhere.close()
      }
    },
    RUN_LIMIT_MS + 10_000,
  )
})

describe("fuzz's reading of Schemathesis's errors says what happened", () => {
  /** A JUnit report with one `<error>` of this text, as Schemathesis writes it. */
  function errorReport(text: string): string {
    return `<testsuites><testsuite name="schemathesis"><testcase name="GET /api/users"><error type="error">${text}</error></testcase></testsuite></testsuites>`
  }
  const CURL = "curl -X GET -H 'Authorization: [Filtered]' http://127.0.0.1:9/api/users"

  test.each([
    [
      'a timeout',
      'Network Error\n\nRead timed out after 1.0 seconds',
      'Network Error: Read timed out after 1.0 seconds',
    ],
    [
      'a reset',
      'Network Error\n\nConnection failed\n\n    Connection aborted. [Errno 104] Connection reset by peer',
      'Network Error: Connection failed: Connection aborted. [Errno 104] Connection reset by peer',
    ],
    [
      'bytes that are not HTTP',
      'Network Error\n\nConnection failed\n\n    Connection aborted. \\x00Ã¿SSH-2.0-OpenSSH_9.6 garbage',
      'Network Error: Connection failed: Connection aborted: the answer is not HTTP (it began "\\\\x00Ã¿SSH-2.0-OpenSSH_9.6 garbage")',
    ],
    [
      "the kit's refusal to send to a server that stopped answering",
      'Hook Error\n\nError in `before_call` hook: RuntimeError: users-api-kit fuzz did not send GET /api/users: the last 3 requests …',
      'users-api-kit fuzz did not send GET /api/users: the last 3 requests …',
    ],
  ])('%s', (_name, text, detail) => {
    const [finding] = readFindings({ junit: errorReport(`${text}\n\nReproduce with:\n\n    ${CURL}`), ndjson: '' })
    expect(finding).toMatchObject({ check: 'error', title: 'Could not test', detail, curl: [CURL] })
  })
})

describe('the control token of a mock that requires one', () => {
  /** A mock's stand-in: 401 on /__mock/target unless the token is `right-token`, then a 404; remembers the headers. */
  async function startGuardedServer() {
    const seen: IncomingHttpHeaders[] = []
    const server = createServer((request, response) => {
      seen.push(request.headers)
      response.writeHead(request.headers.authorization === 'Bearer right-token' ? 404 : 401).end()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const address = server.address()
    if (address === null || typeof address === 'string') throw new Error('not listening on TCP')
    const url = `http://127.0.0.1:${address.port}`
    return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
  }

  async function runAgainst(url: string, args: string[], env: Record<string, string> = {}) {
    return execa('node', [MAIN, ...args, '--base-url', url], {
      reject: false,
      all: true,
      env: { FORCE_COLOR: '0', NO_COLOR: '1', USERS_API_KIT_CONTROL_TOKEN: '', ...env },
      timeout: 30_000,
    })
  }

  test('without one, a 401 from /__mock/target says to pass --control-token or set the variable: exit 2', async () => {
    const server = await startGuardedServer()
    try {
      const run = await runAgainst(server.url, ['verify'])
      expect(run.exitCode).toBe(2)
      expect(run.stderr).toContain(
        'this mock requires its control token: pass --control-token or set USERS_API_KIT_CONTROL_TOKEN',
      )
      expect(server.seen[0]?.authorization).toBeUndefined()
    } finally {
      await server.close()
    }
  })

  test('a wrong one is refused: the same advice, and that the token given was refused', async () => {
    const server = await startGuardedServer()
    try {
      const run = await runAgainst(server.url, ['verify', '--control-token', 'wrong-token'])
      expect(run.exitCode).toBe(2)
      expect(run.stderr).toContain('pass --control-token or set USERS_API_KIT_CONTROL_TOKEN')
      expect(run.stderr).toContain('The control token given was refused.')
    } finally {
      await server.close()
    }
  })

  test.each([
    ['verify', '--control-token'],
    ['gate', '--control-token'],
    ['fuzz', 'USERS_API_KIT_CONTROL_TOKEN'],
  ])('%s sends it from %s as Authorization: Bearer to /__mock/target', async (command, source) => {
    const server = await startGuardedServer()
    try {
      const fromFlag = source === '--control-token'
      const args = fromFlag ? [command, '--control-token', 'right-token'] : [command]
      const run = await runAgainst(server.url, args, fromFlag ? {} : { USERS_API_KIT_CONTROL_TOKEN: 'right-token' })
      // Past the guard: the stand-in then answers 404, which is no mock.
      expect(run.stderr).toContain(`${server.url}/__mock/target answered 404`)
      expect(server.seen.map((headers) => headers.authorization)).toEqual(['Bearer right-token'])
    } finally {
      await server.close()
    }
  })
})

describe('--timeout and --control-token', () => {
  test('a timeout that is not a whole number of ms is a usage error: exit 2', async () => {
    const run = await execa('node', [MAIN, 'verify', '--base-url', 'http://127.0.0.1:9', '--timeout', '1.5'], {
      reject: false,
    })
    expect(run.exitCode).toBe(2)
    expect(run.stderr).toContain('--timeout must be an integer from 1 to 300000 (got "1.5")')
  })

  test('verify, fuzz and gate share them: 10 s by default, the token from the flag, else the environment', () => {
    expect(readTargetOptions({ target: 't.json' }, {})).toMatchObject({ timeoutMs: 10_000, controlToken: undefined })
    expect(readTargetOptions({ target: 't.json', timeout: '750' }, {}).timeoutMs).toBe(750)
    const env = { USERS_API_KIT_CONTROL_TOKEN: 'from-env' }
    expect(readTargetOptions({ 'base-url': 'http://x', 'control-token': 'from-flag' }, env).controlToken).toBe(
      'from-flag',
    )
    expect(readTargetOptions({ 'base-url': 'http://x' }, env).controlToken).toBe('from-env')
    expect(() => readTargetOptions({ target: 't.json', timeout: '0' }, {})).toThrow(
      '--timeout must be an integer from 1',
    )
  })

  test.each([
    ['verify', VERIFY_USAGE],
    ['fuzz', FUZZ_USAGE],
    ['gate', GATE_USAGE],
  ])('%s --help documents both, and what counts as unreachable', (_command, usage) => {
    expect(usage).toMatch(/--request-timeout MS\s+Per request/)
    expect(usage).toMatch(/--control-token T +With --base-url/)
    expect(usage).toContain('USERS_API_KIT_CONTROL_TOKEN')
    // Where a server that hangs on the first request stands: broken (1), not unreachable (2).
    expect(usage.replace(/\s+/g, ' ')).toMatch(/accepts connections (and then|but) hangs/)
  })
})
