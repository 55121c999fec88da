import { beforeEach, describe, expect, test } from 'vitest'
import { createProxyJudge, violations, type ProxyJudgeHarness } from '../../support/proxy-judge.js'
import { ADMIN, BOT, listOf, meOf, OWNER, patchOf, VIEWER } from '../../support/proxy-people.js'

// Acme: Olivia Owner, Ada Admin, Vic Viewer (SUSPENDED here), Build Bot, in that order.

let proxy: ProxyJudgeHarness

const RULE = 'lists-agree-with-the-whole-list'
const SUSPENDED_VIEWER = { ...VIEWER, status: 'SUSPENDED' }
const EVERYONE = [OWNER, ADMIN, SUSPENDED_VIEWER, BOT]

beforeEach(async () => {
  proxy = await createProxyJudge()
  proxy.judge(meOf('owner', OWNER))
  proxy.judge(meOf('viewer', VIEWER))
})

function judged(findings: ReturnType<ProxyJudgeHarness['judge']>): string[] {
  return violations(findings).filter((violation) => violation.startsWith(RULE))
}

/** The owner reads the whole list, two pages of two. */
function readWhole(users = EVERYONE): void {
  proxy.judge(listOf('owner', users.slice(0, 2), 'limit=2&page=1', { total: users.length }))
  proxy.judge(listOf('owner', users.slice(2, 4), 'limit=2&page=2', { total: users.length }))
}

describe('lists-agree-with-the-whole-list', () => {
  test('a search that leaves out a matching user breaks §4.list.search', () => {
    readWhole()
    // "vic" is in Vic Viewer's name and email; a case-sensitive backend misses "VIC".
    const findings = proxy.judge(listOf('owner', [], 'search=VIC', { total: 0 }))
    expect(judged(findings)).toEqual([`${RULE} §4.list.search`])
    const [finding] = findings.filter((entry) => entry.check === RULE)
    expect(finding?.message).toBe(
      'Received: page 1 by 20 for search="VIC" without usr_viewer (Vic Viewer, v@acme.test, CLIENT_VIEWER, SUSPENDED)\nExpected: that user on it (1 on this page), as the organization\'s whole list, read 0 ms before by the CLIENT_OWNER usr_owner (4 users), with no write through the proxy since gives (one of the two answers is wrong)',
    )
    expect(judged(proxy.judge(listOf('owner', [SUSPENDED_VIEWER], 'search=VIC')))).toEqual([])
  })

  test('a role= page that leaves out a user of that role breaks §4.list.role; a total that misses one too', () => {
    readWhole()
    expect(judged(proxy.judge(listOf('owner', [], 'role=BOT_USER', { total: 1 })))).toEqual([`${RULE} §4.list.role`])
    expect(judged(proxy.judge(listOf('owner', [], 'role=BOT_USER&page=2', { total: 0 })))).toEqual([
      `${RULE} §4.list.role §4.list.answer`,
    ])
  })

  test("a viewer's list without the SUSPENDED user breaks §4.list.every-status", () => {
    readWhole()
    const active = [OWNER, ADMIN, BOT]
    expect(judged(proxy.judge(listOf('viewer', active, 'limit=100', { total: 3 })))).toEqual([
      `${RULE} §4.list.every-status §4.list.answer`,
    ])
  })

  test("the owner's list holding the SUSPENDED user a viewer's whole list left out: one of the two is wrong", () => {
    const active = [OWNER, ADMIN, BOT]
    proxy.judge(listOf('viewer', active, 'limit=100'))
    const findings = proxy.judge(listOf('owner', EVERYONE, 'limit=100'))
    expect(judged(findings)).toEqual([`${RULE} §4.list.every-status §4.list.answer`])
    expect(findings.find((entry) => entry.check === RULE)?.message).toContain(
      "Expected: only users it held, as the organization's whole list, read 0 ms before by the CLIENT_VIEWER usr_viewer (3 users)",
    )
  })

  test('§4: the empty term is no filter, and a term of white space is a term', () => {
    readWhole()
    expect(judged(proxy.judge(listOf('owner', EVERYONE, 'search=')))).toEqual([])
    // Every name holds a space; no email does.
    expect(judged(proxy.judge(listOf('owner', EVERYONE, 'search=%20')))).toEqual([])
    expect(judged(proxy.judge(listOf('owner', [], 'search=%20', { total: 0 })))).toEqual([`${RULE} §4.list.search`])
  })

  test('nothing is said without a whole list: a page missing, a write between the pages, or one older than a second', () => {
    proxy.judge(listOf('owner', EVERYONE.slice(0, 2), 'limit=2&page=1', { total: 4 }))
    expect(judged(proxy.judge(listOf('owner', [], 'search=VIC', { total: 0 })))).toEqual([])
    proxy.judge(
      patchOf('owner', 'usr_admin', { name: 'Ada' }, 200, {
        ...ADMIN,
        name: 'Ada',
        updatedAt: '2024-02-01T00:00:00.000Z',
      }),
    )
    proxy.judge(listOf('owner', EVERYONE.slice(2, 4), 'limit=2&page=2', { total: 4 }))
    expect(judged(proxy.judge(listOf('owner', [], 'search=VIC', { total: 0 })))).toEqual([])
    readWhole()
    proxy.pass(1_001)
    expect(judged(proxy.judge(listOf('owner', [], 'search=VIC', { total: 0 })))).toEqual([])
  })

  test('a write in flight, or one whose answer does not say what it did, leaves the whole list unsure', () => {
    readWhole()
    const deletion = proxy.begin({ method: 'DELETE', path: '/api/users/usr_viewer', token: 'owner', status: 204 })
    expect(judged(proxy.judge(listOf('owner', [], 'search=VIC', { total: 0 })))).toEqual([])
    deletion.end()
  })

  test('the writes through the proxy are followed by what their answers say: a rename, a deletion', () => {
    readWhole()
    const renamed = { ...ADMIN, name: 'Ada Quartz', updatedAt: '2024-02-01T00:00:00.000Z' }
    proxy.judge(patchOf('owner', 'usr_admin', { name: 'Ada Quartz' }, 200, renamed))
    expect(judged(proxy.judge(listOf('owner', [renamed], 'search=quartz')))).toEqual([])
    const findings = proxy.judge(listOf('owner', [], 'search=quartz', { total: 0 }))
    expect(judged(findings)).toEqual([`${RULE} §4.list.search`])
    expect(findings.find((entry) => entry.check === RULE)?.message).toContain(
      'with the write through the proxy since followed by what their answers say they did, and no other',
    )
    proxy.judge({ method: 'DELETE', path: '/api/users/usr_bot', token: 'owner', status: 204 })
    expect(judged(proxy.judge(listOf('owner', [OWNER, renamed, SUSPENDED_VIEWER], 'limit=100')))).toEqual([])
  })

  test('a term the two readings of lower case split is not judged: a final sigma', () => {
    const sigma = { ...BOT, name: 'ΟΔΥΣΣΕΥΣ' }
    readWhole([OWNER, ADMIN, SUSPENDED_VIEWER, sigma])
    expect(judged(proxy.judge(listOf('owner', [], 'search=%CF%83%CE%B5%CF%85%CF%82', { total: 0 })))).toEqual([])
  })
})
