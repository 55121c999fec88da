import { afterAll, describe, expect, test } from 'vitest'
import type { SentenceId } from '../../src/contract/rules/contract-sentences.js'
import { createTarget } from '../../src/mock-instance/create-target.js'
import type { FindingEntry } from '../../src/proxy/finding-entry.js'
import { startProxy } from '../../src/proxy/start-proxy.js'
import { createMockApp, serverUrl } from '../../src/server/start-mock.js'
import { MUTANTS } from '../support/broken-servers/mutants.js'
import { DISPOSABLE_USERS_NEEDED, runScriptedTraffic } from '../support/proxy-traffic.js'

// Issue 23: the scripted client's traffic through the proxy, in front of the mock broken one rule at a
// time (test/support/broken-servers/mutants.ts): each fault a passive observer can see is reported as a
// violation, by the check of its rule, naming its sentence. The faults left out need a request this
// script does not send (a count of issues, a pointer escaped, a whole list read before a search): verify's
// traffic shows them to the proxy (proxy-reports-broken-servers-on-verify-traffic); webhooks no traffic
// through it shows (docs/proxy.md, "What a passive observer cannot check").

/** Mutant → the check that must report it, and the sentence it must name (none for the document's own checks). */
const VISIBLE: Record<string, { check: string; sentence?: SentenceId }> = {
  'accepts-a-missing-authorization-header': {
    check: 'answers-follow-the-order-of-checks',
    sentence: '§2.missing-header',
  },
  'drops-www-authenticate': { check: 'www-authenticate-on-401', sentence: '§2.www-authenticate' },
  'says-invalid-token-without-a-token': { check: 'www-authenticate-on-401', sentence: '§2.invalid-token' },
  'lets-suspended-users-in': { check: 'refused-tokens-get-401', sentence: '§2.suspended-token' },
  'keeps-deleted-users-tokens': { check: 'refused-tokens-get-401', sentence: '§2.deleted-token' },
  'lets-bots-list': { check: 'permission-table-holds', sentence: '§3.list.refuses' },
  'lets-bots-read-others': { check: 'permission-table-holds', sentence: '§3.read.refuses' },
  'lets-bots-read-non-owners': { check: 'permission-table-holds', sentence: '§3.read.refuses' },
  'lets-viewers-rename-others': { check: 'permission-table-holds', sentence: '§3.name.refuses' },
  'lets-admins-change-owners': { check: 'permission-table-holds', sentence: '§3.name.refuses' },
  'lets-admins-grant-owner': { check: 'permission-table-holds', sentence: '§3.role-status.refuses' },
  'lets-users-change-their-own-role': { check: 'permission-table-holds', sentence: '§3.self.role-status' },
  'lets-users-delete-themselves': { check: 'permission-table-holds', sentence: '§3.self.delete' },
  'lets-viewers-delete': { check: 'permission-table-holds', sentence: '§3.delete.refuses' },
  'answers-403-for-other-organizations': {
    check: 'other-organizations-ids-are-404',
    sentence: '§3.other-organization',
  },
  'shows-other-organizations-users': {
    check: 'answers-stay-in-the-callers-organization',
    sentence: '§3.other-organization',
  },
  'lists-other-organizations': {
    check: 'answers-stay-in-the-callers-organization',
    sentence: '§4.list.own-organization',
  },
  'clamps-the-limit': { check: 'answers-follow-the-order-of-checks', sentence: '§4.list.limit' },
  'reads-roles-case-insensitively': { check: 'answers-follow-the-order-of-checks', sentence: '§4.list.enum-case' },
  'reads-search-as-a-sql-like-pattern': { check: 'list-filters-hold', sentence: '§4.list.search' },
  'orders-newest-first': { check: 'list-order-holds', sentence: '§4.list.order' },
  'rounds-total-pages-down': { check: 'list-pages-add-up', sentence: '§4.list.answer' },
  'answers-404-past-the-end': { check: 'answers-follow-the-order-of-checks', sentence: '§4.list.past-the-end' },
  'pages-the-list-before-filtering-it': { check: 'list-pages-add-up', sentence: '§4.list.answer' },
  'allows-patch-on-me': { check: 'answers-follow-the-order-of-checks', sentence: '§4.me.405' },
  'ignores-unknown-keys': { check: 'answers-follow-the-order-of-checks', sentence: '§4.patch.400' },
  'accepts-any-content-type': { check: 'answers-follow-the-order-of-checks', sentence: '§4.patch.415' },
  'judges-the-state-rule-before-the-body': {
    check: 'answers-follow-the-order-of-checks',
    sentence: '§4.patch.status-values',
  },
  'accepts-oversized-bodies-as-bad-requests': {
    check: 'answers-follow-the-order-of-checks',
    sentence: '§4.bodies.413',
  },
  'answers-unknown-routes': { check: 'answers-follow-the-order-of-checks', sentence: '§4.other.404' },
  'stores-names-untrimmed': { check: 'names-are-stored-trimmed', sentence: '§1.name' },
  'bumps-updated-at-on-no-op': { check: 'updated-at-moves-only-on-a-change', sentence: '§4.patch.same-value' },
  'applies-the-valid-part-of-a-refused-body': {
    check: 'refused-patches-change-nothing',
    sentence: '§5.400-changes-nothing',
  },
  'keeps-deleted-users-listed': { check: 'deleted-users-stay-gone', sentence: '§4.delete.after' },
  'deletes-with-a-body': { check: 'status-is-documented' },
  'drops-a-required-field': { check: 'body-matches-schema' },
  'sends-errors-as-plain-json': { check: 'errors-are-problem-details', sentence: '§5.problem' },
  'drops-validation-errors': { check: 'problem-code-matches-status', sentence: '§5.errors' },
  'drops-allow-on-405': { check: 'allow-on-405', sentence: '§4.other.405' },
  'crashes-on-a-bad-query': { check: 'no-internal-errors', sentence: '§5.500' },
}

const caught: string[] = []

afterAll(() => {
  console.log(
    `proxy: ${caught.length} of ${Object.keys(VISIBLE).length} broken servers a passive observer can see were reported on their rule`,
  )
})

/** The broken mock, the proxy in front of it, the scripted traffic through both: every finding. */
async function judgeBrokenServer(name: string): Promise<FindingEntry[]> {
  const mutant = MUTANTS.find((candidate) => candidate.name === name)
  if (!mutant) throw new Error(`No broken server ${name} in test/support/broken-servers/mutants.ts.`)
  const { app, state, mock } = await createMockApp({ users: 8, ...mutant.mockOptions })
  mutant.apply({ app, state, mock })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const target = createTarget(state.store, serverUrl(app), DISPOSABLE_USERS_NEEDED)
  const proxy = await startProxy({ upstream: target.baseUrl, port: 0 })
  try {
    await runScriptedTraffic(proxy.url, target)
    await proxy.settled()
    return proxy.log.recent()
  } finally {
    await proxy.close()
    await app.close()
  }
}

describe('the proxy reports a broken backend on the rule it breaks', () => {
  test.each(Object.entries(VISIBLE))('%s', async (name, expected) => {
    const findings = await judgeBrokenServer(name)
    const violations = findings.filter((entry) => entry.kind === 'violation')
    const named = violations.filter(
      (entry) =>
        entry.check === expected.check &&
        (expected.sentence === undefined || entry.sentences.includes(expected.sentence)),
    )
    if (named.length > 0) caught.push(name)
    expect(
      named.length,
      violations.map((entry) => `${entry.check} ${entry.sentences.join(' ')}: ${entry.message}`).join('\n'),
    ).toBeGreaterThan(0)
    // The client's own mistakes stay the client's: the backend is blamed only where it answered them wrong.
    expect(findings.filter((entry) => entry.kind === 'client').every((entry) => entry.check === 'client-request')).toBe(
      true,
    )
  })
})

// The same traffic in front of servers broken only in their webhooks (docs/contract.md §6): their API
// answers are correct, so the proxy, which sees no webhook, must report nothing at all.
describe('the proxy raises no false alarm on a server whose answers are correct', () => {
  const webhookFaults = MUTANTS.filter((mutant) => mutant.breaks.startsWith('§6')).map((mutant) => mutant.name)

  test('there are such servers to try', () => {
    expect(webhookFaults.length).toBeGreaterThan(10)
  })

  test.each(webhookFaults)('%s', async (name) => {
    const findings = await judgeBrokenServer(name)
    expect(findings.filter((entry) => entry.kind !== 'client').map((entry) => entry.report)).toEqual([])
  })
})
