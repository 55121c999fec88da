import { readdirSync, readFileSync, statSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { formatViolation } from '../../src/contract/client/contract-violation.js'
import { maskHeaderValue, redactSecrets } from '../../src/text/redact-secrets.js'
import { toCurl } from '../../src/contract/client/to-curl.js'
import { buildCliOnce, MAIN } from '../support/cli-mock-process.js'
import { startEchoingServer, targetFor, tokensOf, type HostileServer } from '../support/hostile-servers.js'

// Item 9 of "Hostile inputs on both sides": reports end up in CI logs and artifacts, so the target's
// tokens never appear in them (curl lines show `Authorization: Bearer ***`, a token a server echoes is
// masked too) unless --show-secrets; and no run leaves a file holding them, also when interrupted.

const RUN_LIMIT_MS = 60_000

let directory: string

beforeAll(async () => {
  await buildCliOnce()
  directory = await mkdtemp(join(tmpdir(), 'tokens-out-of-reports-'))
}, 120_000)

afterAll(async () => {
  await rm(directory, { recursive: true, force: true })
})

let runs = 0

/** `users-api-kit verify` against a server, with both reports; everything it printed and wrote. */
async function verify(server: HostileServer, args: string[] = []) {
  const prefix = join(directory, `verify-${(runs += 1)}`)
  // The target file is the user's own: it is the one file that may hold the tokens.
  await writeFile(`${prefix}.target.json`, JSON.stringify(targetFor(server.url)))
  const result = await execa(
    'node',
    [
      MAIN,
      'verify',
      '--target',
      `${prefix}.target.json`,
      '--junit',
      `${prefix}.xml`,
      '--json',
      `${prefix}.json`,
      ...args,
    ],
    { reject: false, all: true, env: { FORCE_COLOR: '0', NO_COLOR: '1' }, timeout: RUN_LIMIT_MS },
  )
  return {
    exitCode: result.exitCode ?? -1,
    all: result.all,
    junit: await readFile(`${prefix}.xml`, 'utf8'),
    json: await readFile(`${prefix}.json`, 'utf8'),
  }
}

describe.concurrent('verify against a server that echoes the Authorization header in its errors', () => {
  test(
    'prints and writes no token: curl lines say Bearer ***, the echo is masked, in the output, JUnit and JSON',
    async () => {
      const server = await startEchoingServer()
      try {
        const run = await verify(server)

        expect(run.exitCode, run.all.slice(-2000)).toBe(1)
        for (const [where, text] of Object.entries({ output: run.all, junit: run.junit, json: run.json })) {
          for (const token of tokensOf(targetFor(server.url)))
            expect(text, `${token} in the ${where}`).not.toContain(token)
          expect(text, where).toMatch(/Reproduce: curl -i -X GET -H (&apos;|'|\\")authorization: Bearer \*\*\*/)
          expect(text, where).toContain('Internal error for Bearer ***')
        }
      } finally {
        await server.close()
      }
    },
    RUN_LIMIT_MS,
  )

  test(
    '--show-secrets shows them, for someone reproducing a failure by hand',
    async () => {
      const server = await startEchoingServer()
      try {
        const run = await verify(server, ['--show-secrets'])

        expect(run.exitCode, run.all.slice(-2000)).toBe(1)
        // The failures share one cause (a 500 everywhere): its one example is whichever check failed first.
        expect(run.all).toMatch(/Reproduce: curl -i -X GET -H 'authorization: Bearer (?:owner-token|disposable-\d+)'/)
        expect(run.junit).toContain('Internal error for Bearer owner-token')
      } finally {
        await server.close()
      }
    },
    RUN_LIMIT_MS,
  )
})

/** Every file under a directory, with its text (a directory that vanishes meanwhile has none). */
function filesUnder(root: string): Array<{ path: string; text: string }> {
  const files: Array<{ path: string; text: string }> = []
  const visit = (path: string) => {
    try {
      if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry))
      else files.push({ path, text: readFileSync(path, 'utf8') })
    } catch {
      // Removed between the listing and the reading: the run cleans up as it goes.
    }
  }
  visit(root)
  return files
}

describe('no file holds a token', () => {
  test(
    'gate (verify, then fuzz) writes none to the temporary directory, and an interrupt (SIGINT) leaves it empty',
    async () => {
      const server = await startEchoingServer()
      const temporary = await mkdtemp(join(directory, 'tmp-'))
      const targetFile = join(directory, 'gate.target.json')
      // "webhooks": false: the echoing server sends none, and a gate refuses a target that does not say so.
      await writeFile(targetFile, JSON.stringify({ ...targetFor(server.url), webhooks: false }))
      const tokens = tokensOf(targetFor(server.url))
      try {
        const gate = execa(
          'node',
          [MAIN, 'gate', '--target', targetFile, '--max-examples', '50', '--timeout', '5000'],
          {
            reject: false,
            all: true,
            env: { FORCE_COLOR: '0', NO_COLOR: '1', TMPDIR: temporary },
            timeout: RUN_LIMIT_MS,
          },
        )
        // Watch the temporary directory while verify runs and until fuzz's scratch directory appears.
        const seen: string[] = []
        let fuzzing = false
        while (!fuzzing && gate.exitCode === null) {
          for (const file of filesUnder(temporary)) {
            seen.push(file.path)
            for (const token of tokens) expect(file.text, `${token} in ${file.path}`).not.toContain(token)
          }
          fuzzing = readdirSync(temporary).some((name) => name.startsWith('users-api-kit-fuzz-'))
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
        expect(fuzzing, 'fuzz started').toBe(true)
        await new Promise((resolve) => setTimeout(resolve, 1000))
        gate.kill('SIGINT')
        const result = await gate

        expect(result.signal ?? result.exitCode, result.all.slice(-2000)).toMatch(/SIGINT|130/)
        // Nothing stays: Node's compile cache lives in the user's cache folder (src/cli/main.ts), not here.
        expect(readdirSync(temporary)).toEqual([])
        // The gate keeps nothing of its own there (its reports go only where --out or --junit says).
        expect(seen.filter((path) => path.includes('users-api-kit-gate-'))).toEqual([])
      } finally {
        await server.close()
      }
    },
    RUN_LIMIT_MS,
  )
})

describe('what reports show of a request', () => {
  const request = {
    method: 'GET',
    url: 'http://127.0.0.1:4010/api/users/me',
    headers: { authorization: 'Bearer owner-token', 'content-type': 'application/json' },
  }

  test('credentials are masked, their scheme and every other header kept', () => {
    expect(toCurl(request)).toBe(
      "curl -i -X GET -H 'authorization: Bearer ***' -H 'content-type: application/json' http://127.0.0.1:4010/api/users/me",
    )
    expect(toCurl(request, { showSecrets: true })).toContain("'authorization: Bearer owner-token'")
    expect(maskHeaderValue('Authorization', 'Basic dXNlcjpwYXNz')).toBe('Basic ***')
    expect(maskHeaderValue('Authorization', 'owner-token')).toBe('***')
    // Nothing secret in them: shown as sent, so a check of a missing token still reads right.
    expect(maskHeaderValue('Authorization', 'Bearer')).toBe('Bearer')
    expect(maskHeaderValue('Authorization', '')).toBe('')
    expect(maskHeaderValue('Cookie', 'session=abc')).toBe('***')
  })

  test("the target's tokens are masked wherever a report would show them", () => {
    expect(redactSecrets('token owner-token-2 and owner-token', ['owner-token', 'owner-token-2'])).toBe(
      'token *** and ***',
    )
    const report = formatViolation(
      [{ check: 'scenario', rule: 'A rule', message: 'Received: owner-token' }],
      { request, response: { status: 500, headers: {}, text: 'no such token: owner-token' } },
      { secrets: ['owner-token'] },
    )
    expect(report).not.toContain('owner-token')
    expect(report).toContain('Received: ***')
  })
})
