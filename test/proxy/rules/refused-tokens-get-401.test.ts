import { beforeEach, describe, expect, test } from 'vitest'
import { createProxyJudge, violations, type ProxyJudgeHarness } from '../../support/proxy-judge.js'
import { ADMIN, ACME_USERS, listOf, meOf, patchOf, VIEWER } from '../../support/proxy-people.js'

let proxy: ProxyJudgeHarness
const suspended = { ...ADMIN, status: 'SUSPENDED', updatedAt: '2024-01-09T00:00:00.000Z' }

beforeEach(async () => {
  proxy = await createProxyJudge()
  proxy.judge(meOf('admin', ADMIN))
})

describe('refused-tokens-get-401', () => {
  test("a SUSPENDED user's token answered 200 breaks §2.suspended-token", () => {
    expect(proxy.judge(patchOf('owner', 'usr_admin', { status: 'SUSPENDED' }, 200, suspended))).toEqual([])
    expect(
      violations(
        proxy.judge({
          path: '/api/users',
          token: 'admin',
          status: 200,
          json: { data: [], meta: { page: 1, limit: 20, total: 0, totalPages: 0 } },
        }),
      ),
    ).toEqual(['refused-tokens-get-401 §2.suspended-token'])
  })

  test('once ACTIVE again, the same token is accepted again', () => {
    proxy.judge(patchOf('owner', 'usr_admin', { status: 'SUSPENDED' }, 200, suspended))
    proxy.judge(
      patchOf('owner', 'usr_admin', { status: 'ACTIVE' }, 200, {
        ...suspended,
        status: 'ACTIVE',
        updatedAt: '2024-01-10T00:00:00.000Z',
      }),
    )
    expect(violations(proxy.judge(meOf('admin', { ...ADMIN, updatedAt: '2024-01-10T00:00:00.000Z' })))).toEqual([])
  })

  test('a /me answered 200 that shows the caller INVITED breaks §2.invited-token, known or not', () => {
    const invited = { ...VIEWER, status: 'INVITED' }
    const findings = proxy.judge(meOf('never-seen', invited))
    expect(violations(findings)).toEqual(['refused-tokens-get-401 §2.invited-token'])
    expect(findings[0]?.message).toContain('whom this very answer shows INVITED: nothing makes a user INVITED again')
  })

  test('a list the caller reads that shows them SUSPENDED breaks §2.suspended-token', () => {
    const users = ACME_USERS.map((user) => (user.id === 'usr_admin' ? { ...user, status: 'SUSPENDED' } : user))
    // Suspended a while after their /me: answers-agree-on-a-user holds only answers a second apart.
    proxy.pass(60_000)
    expect(violations(proxy.judge(listOf('admin', users)))).toEqual(['refused-tokens-get-401 §2.suspended-token'])
  })

  test('an answer that shows the caller SUSPENDED while a write through the proxy was under way says nothing', () => {
    const suspension = proxy.begin(patchOf('owner', 'usr_admin', { status: 'SUSPENDED' }, 200, suspended))
    const read = proxy.begin(meOf('admin', suspended))
    suspension.end()
    expect(violations(read.end())).toEqual([])
  })
})
