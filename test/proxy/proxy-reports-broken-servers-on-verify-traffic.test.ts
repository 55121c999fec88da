import { afterAll, describe, expect, test } from 'vitest'
import type { SentenceId } from '../../src/contract/rules/contract-sentences.js'
import { createTarget } from '../../src/mock-instance/create-target.js'
import type { FindingEntry } from '../../src/proxy/finding-entry.js'
import { startProxy } from '../../src/proxy/start-proxy.js'
import { createMockApp, serverUrl } from '../../src/server/start-mock.js'
import { MUTANTS } from '../support/broken-servers/mutants.js'
import { buildCliOnce } from '../support/cli-mock-process.js'
import { runVerify } from '../support/run-verify.js'

// Issue 35: the traffic of a full conformance run (verify, through the proxy) in front of the mock broken
// one rule at a time: the faults that run's traffic shows and that the scripted client of
// proxy-catches-broken-servers does not send are reported, each by the rule that judges it, naming its
// sentence. The correct backends behind the same traffic report nothing: proxy-carries-verify-and-fuzz.

/** Mutant → the check that must report it, and the sentence it must name. */
const SHOWN: Record<string, { check: string; sentence: SentenceId }> = {
  // A valid request refused.
  'refuses-the-largest-limit': { check: 'valid-requests-are-not-refused', sentence: '§4.list.limit' },
  'refuses-leading-zeros': { check: 'valid-requests-are-not-refused', sentence: '§4.list.decimal' },
  'counts-search-in-utf16-units': { check: 'valid-requests-are-not-refused', sentence: '§4.list.search' },
  'answers-400-for-ids-of-another-form': { check: 'valid-requests-are-not-refused', sentence: '§3.other-ids' },
  'reads-media-types-case-sensitively': {
    check: 'valid-requests-are-not-refused',
    sentence: '§4.patch.media-type-case',
  },
  'refuses-a-parameter-without-a-space': {
    check: 'valid-requests-are-not-refused',
    sentence: '§4.patch.media-type-case',
  },
  'refuses-a-delete-with-a-body': { check: 'valid-requests-are-not-refused', sentence: '§4.bodies.ignored' },
  // Verify's body of exactly 16 KiB holds a name too long: a 400 is due, the 413 breaks the order.
  'refuses-a-body-of-exactly-16-kib': { check: 'answers-follow-the-order-of-checks', sentence: '§4.patch.400' },
  // A token just accepted, written another way.
  'reads-the-scheme-case-sensitively': { check: 'accepted-tokens-stay-accepted', sentence: '§2.scheme-case' },
  'reads-the-token-after-one-space-only': {
    check: 'accepted-tokens-stay-accepted',
    sentence: '§2.token-white-space',
  },
  // What it saw of a user's status.
  'lets-invited-users-in': { check: 'refused-tokens-get-401', sentence: '§2.invited-token' },
  'activates-invited-users': { check: 'invited-users-keep-their-status', sentence: '§4.patch.409' },
  'renames-an-invited-user-before-refusing-its-status': {
    check: 'refused-patches-change-nothing',
    sentence: '§4.patch.409-changes-nothing',
  },
  'judges-the-state-rule-before-permission': {
    check: 'permission-comes-before-the-state-rule',
    sentence: '§3.order.403-before-409',
  },
  'hides-suspended-users-by-id': { check: 'users-shown-were-there', sentence: '§4.get.any-status' },
  'freezes-invited-users-whole': { check: 'conflicts-are-for-invited-users', sentence: '§4.patch.409' },
  'refuses-to-reactivate-suspended-users': {
    check: 'conflicts-are-for-invited-users',
    sentence: '§4.patch.active-suspended',
  },
  // A list read whole, and answers a moment apart.
  'searches-case-sensitively': { check: 'lists-agree-with-the-whole-list', sentence: '§4.list.search' },
  'lower-cases-ascii-only': { check: 'lists-agree-with-the-whole-list', sentence: '§4.list.search' },
  'lists-only-active-users-to-viewers': {
    check: 'lists-agree-with-the-whole-list',
    sentence: '§4.list.every-status',
  },
  'answers-me-from-a-stale-cache': { check: 'answers-agree-on-a-user', sentence: '§4.me.answer' },
  // Problems as written.
  'leaves-pointers-unescaped': { check: 'problems-point-into-the-body', sentence: '§5.errors.escaped' },
  'points-role-and-status-issues-at-the-name': {
    check: 'problems-point-into-the-body',
    sentence: '§5.errors.pointer',
  },
  'gives-about-blank-its-own-title': { check: 'problems-are-worded-as-agreed', sentence: '§5.problem.fields' },
  'lists-100-issues-without-counting-them': {
    check: 'problems-are-worded-as-agreed',
    sentence: '§5.errors.at-most-100',
  },
}

const caught: string[] = []

afterAll(() => {
  console.log(
    `proxy on verify's traffic: ${caught.length} of ${Object.keys(SHOWN).length} broken servers reported on their rule`,
  )
})

/** verify through a proxy in front of the broken mock: every violation (all of them, not the last 200). */
async function judgeVerifyTraffic(name: string): Promise<FindingEntry[]> {
  const mutant = MUTANTS.find((candidate) => candidate.name === name)
  if (!mutant) throw new Error(`No broken server ${name} in test/support/broken-servers/mutants.ts.`)
  const { app, state, mock } = await createMockApp({ users: 8, ...mutant.mockOptions })
  mutant.apply({ app, state, mock })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const violations: FindingEntry[] = []
  const proxy = await startProxy({
    upstream: serverUrl(app),
    port: 0,
    onFinding: (entry) => {
      if (entry.kind === 'violation') violations.push(entry)
    },
  })
  try {
    // No webhooks: the proxy sees none, and none of these faults is in them.
    const run = await runVerify({ ...createTarget(state.store, proxy.url), webhooks: false })
    expect(run.exitCode, run.output).toBe(1)
    await proxy.settled()
    return violations
  } finally {
    await proxy.close()
    await app.close()
  }
}

describe("the proxy reports, on verify's traffic, the faults it shows", () => {
  // Two at a time (vitest.config.ts maxConcurrency): each run is a verify process of its own.
  test.concurrent.each(Object.entries(SHOWN))(
    '%s',
    async (name, expected) => {
      await buildCliOnce()
      const violations = await judgeVerifyTraffic(name)
      const named = violations.filter(
        (entry) => entry.check === expected.check && entry.sentences.includes(expected.sentence),
      )
      if (named.length > 0) caught.push(name)
      const seen = [...new Set(violations.map((entry) => `${entry.check} ${entry.sentences.join(' ')}`))]
      expect(named.length, seen.join('\n')).toBeGreaterThan(0)
    },
    120_000,
  )
})
