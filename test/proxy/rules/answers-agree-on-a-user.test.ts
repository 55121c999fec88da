import { beforeEach, describe, expect, test } from 'vitest'
import { createProxyJudge, violations, type ProxyJudgeHarness } from '../../support/proxy-judge.js'
import { ACME_USERS, ADMIN, listOf, meOf, patchOf } from '../../support/proxy-people.js'

let proxy: ProxyJudgeHarness

const RULE = 'answers-agree-on-a-user'

beforeEach(async () => {
  proxy = await createProxyJudge()
})

function judged(findings: ReturnType<ProxyJudgeHarness['judge']>): string[] {
  return violations(findings).filter((violation) => violation.startsWith(RULE))
}

describe('answers-agree-on-a-user', () => {
  test('a /me that disagrees with the list read just before breaks §4.me.answer', () => {
    proxy.judge(listOf('admin', ACME_USERS))
    const findings = proxy.judge(meOf('admin', { ...ADMIN, name: 'Ada Before' }))
    expect(judged(findings)).toEqual([`${RULE} §4.me.answer`])
    expect(findings.find((entry) => entry.check === RULE)?.message).toBe(
      'Received: usr_admin with name "Ada Before"\nExpected: "Ada Admin", as an answer 0 ms before showed them, with no write through the proxy since (one of the two answers is wrong)',
    )
  })

  test('the same instant written with another precision is the same updatedAt', () => {
    proxy.judge(meOf('admin', ADMIN))
    const seconds = { ...ADMIN, updatedAt: String(ADMIN.updatedAt).replace('.000Z', 'Z') }
    expect(judged(proxy.judge(listOf('admin', [seconds])))).toEqual([])
  })

  test('a write through the proxy under way, or an answer older than a second, says nothing', () => {
    proxy.judge(listOf('admin', ACME_USERS))
    const renamed = { ...ADMIN, name: 'Ada New', updatedAt: '2024-02-01T00:00:00.000Z' }
    const rename = proxy.begin(patchOf('owner', 'usr_admin', { name: 'Ada New' }, 200, renamed))
    expect(judged(proxy.judge(meOf('admin', renamed)))).toEqual([])
    rename.end()
    proxy.pass(1_001)
    expect(judged(proxy.judge(meOf('admin', { ...renamed, name: 'Someone Else' })))).toEqual([])
  })
})
