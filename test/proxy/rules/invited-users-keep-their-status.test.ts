import { beforeEach, describe, expect, test } from 'vitest'
import { createProxyJudge, violations, type ProxyJudgeHarness } from '../../support/proxy-judge.js'
import { meOf, OWNER, patchOf, VIEWER } from '../../support/proxy-people.js'

let proxy: ProxyJudgeHarness

const RULE = 'invited-users-keep-their-status'
const invited = { ...VIEWER, id: 'usr_invited', status: 'INVITED' }
const read = { path: '/api/users/usr_invited', token: 'owner', status: 200, json: { data: invited } }

beforeEach(async () => {
  proxy = await createProxyJudge()
  proxy.judge(meOf('owner', OWNER))
})

function judged(findings: ReturnType<ProxyJudgeHarness['judge']>): string[] {
  return violations(findings).filter((violation) => violation.startsWith(RULE))
}

describe('invited-users-keep-their-status', () => {
  test('a status PATCH answered 200 right after an answer showed the user INVITED breaks §4.patch.409', () => {
    proxy.judge(read)
    proxy.pass(50)
    const findings = proxy.judge(
      patchOf('owner', 'usr_invited', { status: 'ACTIVE' }, 200, { ...invited, status: 'ACTIVE' }),
    )
    expect(judged(findings)).toEqual([`${RULE} §4.patch.409`])
    expect(findings.find((finding) => finding.check === RULE)?.message).toContain(
      'an answer 50 ms before showed usr_invited INVITED, and no write through the proxy came since',
    )
  })

  test('an answer older than a second leaves room for an invitation accepted meanwhile: nothing is said', () => {
    proxy.judge(read)
    proxy.pass(1_001)
    expect(
      judged(proxy.judge(patchOf('owner', 'usr_invited', { status: 'ACTIVE' }, 200, { ...invited, status: 'ACTIVE' }))),
    ).toEqual([])
  })

  test('a write through the proxy under way leaves it unjudged', () => {
    proxy.judge(read)
    const rename = proxy.begin(patchOf('owner', 'usr_invited', { name: 'Ivy' }, 200, { ...invited, name: 'Ivy' }))
    const activation = patchOf('owner', 'usr_invited', { status: 'ACTIVE' }, 200, { ...invited, status: 'ACTIVE' })
    expect(judged(proxy.judge(activation))).toEqual([])
    rename.end()
  })

  test('a user shown INVITED after a PATCH of their status answered 200 breaks §4.patch.409, however late', () => {
    expect(judged(proxy.judge(patchOf('owner', 'usr_invited', { status: 'SUSPENDED' }, 200, invited)))).toEqual([])
    proxy.pass(60_000)
    expect(judged(proxy.judge(read))).toEqual([`${RULE} §4.patch.409`])
  })

  test('a user shown INVITED after a PATCH answered 409 is the state rule at work', () => {
    proxy.judge(patchOf('owner', 'usr_invited', { status: 'SUSPENDED' }, 409))
    expect(judged(proxy.judge(read))).toEqual([])
  })
})
