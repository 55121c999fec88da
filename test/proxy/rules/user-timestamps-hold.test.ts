import { beforeEach, describe, expect, test } from 'vitest'
import { createProxyJudge, violations, type ProxyJudgeHarness } from '../../support/proxy-judge.js'
import { meOf, VIEWER } from '../../support/proxy-people.js'

let proxy: ProxyJudgeHarness

beforeEach(async () => {
  proxy = await createProxyJudge()
})

describe('user-timestamps-hold', () => {
  test('a createdAt that changed between two answers breaks §1.created-at, whoever wrote in between', () => {
    expect(proxy.judge(meOf('viewer', VIEWER))).toEqual([])
    const moved = { ...VIEWER, createdAt: '2024-01-08T10:00:00.000Z', updatedAt: '2024-01-08T10:00:00.000Z' }
    proxy.pass(60_000)
    expect(violations(proxy.judge(meOf('viewer', moved)))).toEqual(['user-timestamps-hold §1.created-at'])
  })

  test('an updatedAt earlier than createdAt breaks §1.updated-at', () => {
    expect(violations(proxy.judge(meOf('viewer', { ...VIEWER, updatedAt: '2020-01-01T00:00:00Z' })))).toEqual([
      'user-timestamps-hold §1.updated-at',
    ])
  })

  test('the same instant written with another precision is the same createdAt', () => {
    proxy.judge(meOf('viewer', VIEWER))
    expect(proxy.judge(meOf('viewer', { ...VIEWER, createdAt: '2024-01-08T09:03:00Z' }))).toEqual([])
  })
})
