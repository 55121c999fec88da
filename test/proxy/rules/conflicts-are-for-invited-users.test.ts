import { beforeEach, describe, expect, test } from 'vitest'
import { createProxyJudge, violations, type ProxyJudgeHarness } from '../../support/proxy-judge.js'
import { meOf, OWNER, patchOf, VIEWER } from '../../support/proxy-people.js'

let proxy: ProxyJudgeHarness

const RULE = 'conflicts-are-for-invited-users'

beforeEach(async () => {
  proxy = await createProxyJudge()
  proxy.judge(meOf('owner', OWNER))
})

function judged(findings: ReturnType<ProxyJudgeHarness['judge']>): string[] {
  return violations(findings).filter((violation) => violation.startsWith(RULE))
}

describe('conflicts-are-for-invited-users', () => {
  test('a 409 for a PATCH without status breaks §4.patch.409: name and role of an INVITED user can be set', () => {
    expect(judged(proxy.judge(patchOf('owner', 'usr_viewer', { name: 'Ivy' }, 409)))).toEqual([`${RULE} §4.patch.409`])
  })

  test('a 409 for the status of a user shown SUSPENDED, however long before, breaks §4.patch.active-suspended', () => {
    const suspended = { ...VIEWER, status: 'SUSPENDED' }
    proxy.judge({ path: '/api/users/usr_viewer', token: 'owner', status: 200, json: { data: suspended } })
    proxy.pass(3_600_000)
    expect(judged(proxy.judge(patchOf('owner', 'usr_viewer', { status: 'ACTIVE' }, 409)))).toEqual([
      `${RULE} §4.patch.active-suspended`,
    ])
  })

  test('a 409 for the status of a user shown INVITED, or never shown, is the state rule at work', () => {
    expect(judged(proxy.judge(patchOf('owner', 'usr_viewer', { status: 'ACTIVE' }, 409)))).toEqual([])
    const invited = { ...VIEWER, status: 'INVITED' }
    proxy.judge({ path: '/api/users/usr_viewer', token: 'owner', status: 200, json: { data: invited } })
    expect(judged(proxy.judge(patchOf('owner', 'usr_viewer', { status: 'ACTIVE', name: 'Ivy' }, 409)))).toEqual([])
  })
})
