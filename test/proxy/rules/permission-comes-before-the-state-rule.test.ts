import { beforeEach, describe, expect, test } from 'vitest'
import { createProxyJudge, violations, type ProxyJudgeHarness } from '../../support/proxy-judge.js'
import { ADMIN, meOf, OWNER, patchOf, VIEWER } from '../../support/proxy-people.js'

let proxy: ProxyJudgeHarness

beforeEach(async () => {
  proxy = await createProxyJudge()
})

const RULE = 'permission-comes-before-the-state-rule'
const invited = { ...ADMIN, id: 'usr_invited', role: 'CLIENT_VIEWER', status: 'INVITED' }

function judged(findings: ReturnType<ProxyJudgeHarness['judge']>): string[] {
  return violations(findings).filter((violation) => violation.startsWith(RULE))
}

describe('permission-comes-before-the-state-rule', () => {
  test("a viewer setting an INVITED user's status answered 409 breaks §3.order.403-before-409", () => {
    proxy.judge(meOf('viewer', VIEWER))
    expect(judged(proxy.judge(patchOf('viewer', 'usr_invited', { status: 'SUSPENDED' }, 409)))).toEqual([
      `${RULE} §3.role-status.refuses §3.order.403-before-409`,
    ])
  })

  test('the 409 of a token whose /me comes later is judged at that /me, if nothing was written in between', () => {
    expect(judged(proxy.judge(patchOf('viewer', 'usr_invited', { status: 'SUSPENDED' }, 409)))).toEqual([])
    const findings = proxy.judge(meOf('viewer', VIEWER))
    expect(judged(findings)).toEqual([`${RULE} §3.role-status.refuses §3.order.403-before-409`])
    expect(findings[0]?.message).toContain('known from this GET /api/users/me of the same token')
    // Judged once.
    expect(judged(proxy.judge(meOf('viewer', VIEWER)))).toEqual([])
  })

  test('a write through the proxy on the caller between the 409 and their /me leaves the 409 unjudged', () => {
    proxy.judge(patchOf('viewer', 'usr_invited', { status: 'SUSPENDED' }, 409))
    const promoted = { ...VIEWER, role: 'CLIENT_ADMIN', updatedAt: '2024-01-09T00:00:00.000Z' }
    proxy.judge(patchOf('owner', 'usr_viewer', { role: 'CLIENT_ADMIN' }, 200, promoted))
    expect(judged(proxy.judge(meOf('viewer', { ...VIEWER, updatedAt: '2024-01-10T00:00:00.000Z' })))).toEqual([])
  })

  test('a 409 to a caller the table allows is the state rule at work', () => {
    proxy.judge(meOf('owner', OWNER))
    proxy.judge({ path: '/api/users/usr_invited', token: 'owner', status: 200, json: { data: invited } })
    expect(judged(proxy.judge(patchOf('owner', 'usr_invited', { status: 'SUSPENDED' }, 409)))).toEqual([])
    proxy.judge(meOf('admin', ADMIN))
    expect(judged(proxy.judge(patchOf('admin', 'usr_invited', { status: 'ACTIVE' }, 409)))).toEqual([])
  })
})
