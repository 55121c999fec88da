import { beforeEach, describe, expect, test } from 'vitest'
import { createProxyJudge, violations, type ProxyJudgeHarness } from '../../support/proxy-judge.js'
import { ACME_USERS, listOf, meOf, OWNER, problem } from '../../support/proxy-people.js'

let proxy: ProxyJudgeHarness

const RULE = 'users-shown-were-there'
const suspended = ACME_USERS.map((user) => (user.id === 'usr_viewer' ? { ...user, status: 'SUSPENDED' } : user))
const notFound = (path: string, method = 'GET') => ({ method, path, token: 'owner', status: 404, json: problem(404) })

beforeEach(async () => {
  proxy = await createProxyJudge()
  proxy.judge(meOf('owner', OWNER))
})

function judged(findings: ReturnType<ProxyJudgeHarness['judge']>): string[] {
  return violations(findings).filter((violation) => violation.startsWith(RULE))
}

describe('users-shown-were-there', () => {
  test('a user listed SUSPENDED, then 404 by id, then listed again: the 404 breaks §4.get.any-status', () => {
    proxy.judge(listOf('owner', suspended))
    expect(judged(proxy.judge(notFound('/api/users/usr_viewer')))).toEqual([])
    const findings = proxy.judge(listOf('owner', suspended))
    expect(judged(findings)).toEqual([`${RULE} §4.get.any-status`])
    expect(findings.find((finding) => finding.check === RULE)?.message).toContain(
      'Received: GET /api/users/usr_viewer answered 404 earlier, and usr_viewer (SUSPENDED)',
    )
  })

  test('a DELETE answered 404 for a user shown before and after breaks §3.order', () => {
    proxy.judge(listOf('owner', ACME_USERS))
    proxy.judge(notFound('/api/users/usr_viewer', 'DELETE'))
    expect(judged(proxy.judge(listOf('owner', ACME_USERS)))).toEqual([`${RULE} §3.order`])
  })

  test('a 404 with no answer before it: the id may have come later (an invitation), nothing is said', () => {
    proxy.judge(notFound('/api/users/usr_viewer'))
    expect(judged(proxy.judge(listOf('owner', ACME_USERS)))).toEqual([])
  })

  test('a user never shown again after the 404 may have been deleted elsewhere: nothing is said', () => {
    proxy.judge(listOf('owner', ACME_USERS))
    proxy.judge(notFound('/api/users/usr_viewer'))
    const others = ACME_USERS.filter((user) => user.id !== 'usr_viewer')
    expect(judged(proxy.judge(listOf('owner', others, '', { total: others.length })))).toEqual([])
  })

  test('an id written with an escaped letter, which a server may decode before routing, is not judged', () => {
    proxy.judge(listOf('owner', ACME_USERS))
    proxy.judge(notFound('/api/users/usr_%76iewer'))
    expect(judged(proxy.judge(listOf('owner', ACME_USERS)))).toEqual([])
  })
})
