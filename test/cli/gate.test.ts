import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { gateDisposableUsers } from '../../src/cli/gate-prerequisites.js'
import type { UserStore } from '../../src/domain/user-store.js'
import { createTarget } from '../../src/mock-instance/create-target.js'
import { mergeJunitReports, readJunitTotals, renameTestsuites } from '../../src/contract/report/merge-junit-reports.js'
import { createMockApp, serverUrl } from '../../src/server/start-mock.js'
import { FUZZ_BREAKERS, type FuzzBreaker } from '../support/broken-servers/fuzz-breakers.js'
import { runKit } from '../support/run-fuzz.js'

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

/** A mock on a free port, broken by `breaker` when given, with the disposable users a gate needs (verify's, fuzz's). */
async function startServer(breaker?: FuzzBreaker, change?: (store: UserStore) => void) {
  const { app, state, mock } = await createMockApp({ users: 20 })
  breaker?.apply({ app, state, mock })
  change?.(state.store)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const target = createTarget(state.store, serverUrl(app), gateDisposableUsers(false))
  return { target, close: () => app.close() }
}

/** Deletes every INVITED user of the owner's organization: the suite then has no user to check §4's state rule on. */
function deleteInvitedUsers(store: UserStore): void {
  const owner = store.tokenHolders().find(({ user }) => user.role === 'CLIENT_OWNER' && user.status === 'ACTIVE')?.user
  if (!owner) throw new Error('the fixtures have no active owner')
  const invited = store.listUsers(owner, { page: 1, limit: 100 }).data.filter((user) => user.status === 'INVITED')
  expect(invited.length).toBeGreaterThan(0)
  for (const user of invited) store.deleteUser(owner, user.id)
}

/** The paths a run printed to look at (its reports), each of which must still be there once it ended. */
async function expectPrintedPathsKept(output: string): Promise<void> {
  const printed = output.match(/(?<=\s)\/[^\s'"]+\.(?:xml|json|html|ndjson)\b/g) ?? []
  expect(printed.length).toBeGreaterThan(0)
  for (const path of printed) await expect(readFile(path, 'utf8'), path).resolves.toMatch(/\S/)
}

describe('users-api-kit gate', () => {
  test('passes a fresh mock: exit 0, one JUnit file holding the suite and the fuzzer, every report kept', async () => {
    const server = await startServer()
    const out = join(await mkdtemp(join(tmpdir(), 'gate-out-')), 'reports')
    try {
      const run = await runKit('gate', server.target, ['--max-examples', '10', '--seed', '1', '--out', out], 'out')
      const junit = await readFile(join(run.directory, 'out', 'users-api-kit-gate.xml'), 'utf8')

      expect(run.exitCode, run.output.slice(-3000)).toBe(0)
      expect(run.output).toMatch(/users-api-kit gate: PASSED \(exit 0\)/)
      expect(run.output).toMatch(/verify {2}✓ \d+ checks? passed, 0 failed/)
      expect(run.output).toMatch(/fuzz {4}✓ no findings/)
      expect(junit.match(/<testsuites\b/g)).toHaveLength(1)
      expect(junit).toContain('name="users-api-kit verify: list-users.contract.test.ts"')
      expect(junit).toContain('name="users-api-kit fuzz"')
      expect(readJunitTotals(junit)).toMatchObject({ failures: 0, errors: 0 })
      expect(readJunitTotals(junit).tests).toBeGreaterThan(200)
      // --junit names the JUnit file; --out the folder that gets the rest (verify's page).
      expect(run.output).toContain(`HTML    ${join(out, 'users-api-kit-verify.html')}`)
      await expectPrintedPathsKept(run.output)
      expect(run.output).not.toMatch(/users-api-kit-(gate|fuzz)-\w{6}\//)
    } finally {
      await server.close()
    }
  }, 240_000)

  test('fails a target that lacks what a check needs at run time (a skip is no pass): exit 1, naming the lack', async () => {
    const server = await startServer(undefined, deleteInvitedUsers)
    try {
      const run = await runKit('gate', server.target, ['--max-examples', '3', '--seed', '1'], 'gate.xml')

      expect(run.exitCode, run.output.slice(-3000)).toBe(1)
      expect(run.output).toMatch(/users-api-kit gate: FAILED \(exit 1\)/)
      expect(run.output).toMatch(/verify {2}✗ \d+ checks? passed, 0 failed, [1-9]\d* skipped/)
      expect(run.output).toMatch(/ {10}lacks: the organization has no INVITED user \(\d+\)\n/)
      expect(run.output).toMatch(/fuzz {4}✓ no findings/)
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
