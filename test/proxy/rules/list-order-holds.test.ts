import { beforeEach, describe, expect, test } from 'vitest'
import { createProxyJudge, violations, type ProxyJudgeHarness } from '../../support/proxy-judge.js'
import { ADMIN, BOT, listOf, OWNER, patchOf, VIEWER } from '../../support/proxy-people.js'

let proxy: ProxyJudgeHarness

beforeEach(async () => {
  proxy = await createProxyJudge()
})

describe('list-order-holds', () => {
  test('a page newest first breaks §4.list.order', () => {
    expect(violations(proxy.judge(listOf('owner', [BOT, VIEWER, ADMIN, OWNER])))).toEqual([
      'list-order-holds §4.list.order',
    ])
  })

  test('ties of createdAt are broken by id, and any precision compares right', () => {
    const a = { ...ADMIN, id: 'usr_a', createdAt: '2024-01-08T09:00:00Z' }
    const b = { ...ADMIN, id: 'usr_b', createdAt: '2024-01-08T09:00:00.000Z' }
    const c = { ...ADMIN, id: 'usr_c', createdAt: '2024-01-08T09:00:00.5Z' }
    expect(proxy.judge(listOf('owner', [a, b, c]))).toEqual([])
    expect(violations(proxy.judge(listOf('owner', [b, a, c])))).toEqual(['list-order-holds §4.list.order'])
  })

  test('page 2 that starts before page 1 ends breaks §4.list.order, and so does a user on both', () => {
    expect(proxy.judge(listOf('owner', [OWNER, VIEWER], 'limit=2', { total: 4 }))).toEqual([])
    expect(violations(proxy.judge(listOf('owner', [ADMIN, BOT], 'limit=2&page=2', { total: 4 })))).toEqual([
      'list-order-holds §4.list.order',
    ])
    expect(violations(proxy.judge(listOf('owner', [VIEWER, BOT], 'limit=2&page=2', { total: 4 })))).toEqual([
      'list-order-holds §4.list.order',
    ])
  })

  test('nothing is said across pages read on both sides of a write', () => {
    expect(proxy.judge(listOf('owner', [OWNER, VIEWER], 'limit=2', { total: 4 }))).toEqual([])
    const demoted = { ...BOT, role: 'CLIENT_VIEWER', updatedAt: '2024-01-09T00:00:00.000Z' }
    proxy.judge(patchOf('owner', 'usr_bot', { role: 'CLIENT_VIEWER' }, 200, demoted))
    expect(violations(proxy.judge(listOf('owner', [ADMIN, demoted], 'limit=2&page=2', { total: 4 })))).toEqual([])
  })

  test('pages of another filter or page size are other lists', () => {
    expect(proxy.judge(listOf('owner', [OWNER, VIEWER], 'limit=2', { total: 4 }))).toEqual([])
    expect(proxy.judge(listOf('owner', [ADMIN], 'limit=1&page=2', { total: 4 }))).toEqual([])
  })
})
