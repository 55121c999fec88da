import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { createTarget } from '../src/mock-instance/create-target.js'
import { mergeJunitReports, readJunitTotals, renameTestsuites } from '../src/contract/merge-junit-reports.js'
import { createMockApp, serverUrl } from '../src/server/start-mock.js'
import { FUZZ_BREAKERS, type FuzzBreaker } from './broken-servers/fuzz-breakers.js'
import { runKit } from './support/run-fuzz.js'

const VITEST_REPORT = `<?xml version="1.0" encoding="UTF-8" ?>
<testsuites name="users-api-kit verify" tests="3" failures="1" errors="0" time="0.5">
    <testsuite name="a.contract.test.ts" tests="2" failures="1" errors="0" skipped="0" time="0.25">
        <testcase classname="a.contract.test.ts" name="x &gt; y" time="0.1"></testcase>
    </testsuite>
    <testsuite name="b.contract.test.ts" tests="1" failures="0" errors="0" skipped="1" time="0.25">
    </testsuite>
</testsuites>`

const SCHEMATHESIS_REPORT = `<?xml version="1.0" encoding="utf-8"?>
<testsuites errors="0" failures="1" skipped="0" tests="7" time="6.1">
  <testsuite name="schemathesis" hostname="vm" errors="0" failures="1" skipped="0" tests="7" time="6.1">
    <testcase name="GET /api/users" time="3.6"><failure type="failure" message="ST101">1. Test Case ID: abc</failure></testcase>
  </testsuite>
</testsuites>`

describe('merging JUnit reports', () => {
  test('puts every testsuite of both reports under one <testsuites>, with the totals added up', () => {
    const fuzz = renameTestsuites(SCHEMATHESIS_REPORT, () => 'users-api-kit fuzz')
    const merged = mergeJunitReports('users-api-kit gate', [VITEST_REPORT, fuzz])

    expect(merged.match(/<testsuites\b/g)).toHaveLength(1)
    expect(merged.match(/<testsuite\b/g)).toHaveLength(3)
    expect(merged).toMatch(/<testsuites name="users-api-kit gate" tests="10" failures="2" errors="0" skipped="1"/)
    expect(merged).toContain('name="users-api-kit fuzz"')
    expect(merged).toContain('<testcase classname="a.contract.test.ts" name="x &gt; y"')
    expect(readJunitTotals(merged)).toMatchObject({ tests: 10, failures: 2, errors: 0, skipped: 1 })
    expect(readJunitTotals(merged).time).toBeCloseTo(6.6)
  })

  test('renames suites with their names decoded and re-escaped', () => {
    const renamed = renameTestsuites('<testsuite name="a &amp; b" tests="1">', (name) => `verify: ${name}`)
    expect(renamed).toBe('<testsuite name="verify: a &amp; b" tests="1">')
  })
})

/** A mock on a free port, broken by `breaker` when given, with 9 disposable users (6 for verify, 3 for fuzz). */
async function startServer(breaker?: FuzzBreaker) {
  const { app, state, mock } = await createMockApp({ users: 20 })
  breaker?.apply({ app, state, mock })
  await app.listen({ port: 0, host: '127.0.0.1' })
  return { target: createTarget(state.store, serverUrl(app), 9), close: () => app.close() }
}

describe('users-api-kit gate', () => {
  test('passes a fresh mock: exit 0, one JUnit file holding the suite and the fuzzer', async () => {
    const server = await startServer()
    try {
      const run = await runKit('gate', server.target, ['--max-examples', '10', '--seed', '1'], 'out')
      const junit = await readFile(join(run.directory, 'out', 'users-api-kit-gate.xml'), 'utf8')

      expect(run.exitCode, run.output.slice(-3000)).toBe(0)
      expect(run.output).toMatch(/users-api-kit gate: PASSED \(exit 0\)/)
      expect(run.output).toMatch(/verify {2}✓ \d+ checks passed, 0 failed/)
      expect(run.output).toMatch(/fuzz {4}✓ no findings/)
      expect(junit.match(/<testsuites\b/g)).toHaveLength(1)
      expect(junit).toContain('name="users-api-kit verify: list-users.contract.test.ts"')
      expect(junit).toContain('name="users-api-kit fuzz"')
      expect(readJunitTotals(junit)).toMatchObject({ failures: 0, errors: 0 })
      expect(readJunitTotals(junit).tests).toBeGreaterThan(200)
    } finally {
      await server.close()
    }
  }, 240_000)

  test('fails a server whose responses break the schema: exit 1, failures in the JUnit file', async () => {
    const breaker = FUZZ_BREAKERS.find((candidate) => candidate.caughtBy === 'response_schema_conformance')
    const server = await startServer(breaker)
    try {
      const run = await runKit('gate', server.target, ['--max-examples', '5', '--seed', '1'], 'gate.xml')

      expect(run.exitCode, run.output.slice(-3000)).toBe(1)
      expect(run.output).toMatch(/users-api-kit gate: FAILED \(exit 1\)/)
      expect(run.output).toMatch(/fuzz {4}✗ \d+ findings: .*response_schema_conformance/)
      expect(readJunitTotals(run.junit ?? '').failures).toBeGreaterThan(1)
    } finally {
      await server.close()
    }
  }, 240_000)

  test('could not run when the target is unreachable: exit 2', async () => {
    const server = await startServer()
    await server.close()
    const run = await runKit('gate', server.target, [], 'gate.xml')
    expect(run.exitCode).toBe(2)
    expect(run.output).toMatch(/users-api-kit gate: COULD NOT RUN \(exit 2\)/)
  })
})
