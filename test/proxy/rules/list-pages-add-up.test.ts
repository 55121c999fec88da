import { beforeEach, describe, expect, test } from 'vitest'
import { createProxyJudge, violations, type ProxyJudgeHarness } from '../../support/proxy-judge.js'
import { ACME_USERS, ADMIN, BOT, listOf, OWNER, VIEWER } from '../../support/proxy-people.js'

let proxy: ProxyJudgeHarness

beforeEach(async () => {
  proxy = await createProxyJudge()
})

describe('list-pages-add-up', () => {
  test('totalPages rounded down breaks §4.list.answer', () => {
    expect(violations(proxy.judge(listOf('owner', [OWNER, ADMIN], 'limit=2', { total: 5, totalPages: 2 })))).toEqual([
      'list-pages-add-up §4.list.answer',
    ])
  })

  test('a page shorter than the arithmetic gives breaks §4.list.answer', () => {
    expect(violations(proxy.judge(listOf('owner', [OWNER], 'limit=2', { total: 4 })))).toEqual([
      'list-pages-add-up §4.list.answer',
    ])
  })

  test('users past the last page break §4.list.past-the-end', () => {
    expect(violations(proxy.judge(listOf('owner', [BOT], 'limit=2&page=3', { total: 4 })))).toEqual([
      'list-pages-add-up §4.list.answer §4.list.past-the-end',
    ])
  })

  test('meta that does not echo the page asked for breaks §4.list.answer', () => {
    expect(violations(proxy.judge(listOf('owner', [VIEWER, BOT], 'limit=2&page=2', { total: 4, page: 1 })))).toEqual([
      'list-pages-add-up §4.list.answer',
    ])
  })

  test('correct pages say nothing: a full one, the last one, one past the end, an empty list', () => {
    expect(proxy.judge(listOf('owner', ACME_USERS))).toEqual([])
    expect(proxy.judge(listOf('owner', [VIEWER, BOT], 'limit=2&page=2', { total: 4 }))).toEqual([])
    expect(proxy.judge(listOf('owner', [], 'limit=2&page=7', { total: 4 }))).toEqual([])
    expect(proxy.judge(listOf('owner', [], 'role=BOT_USER&search=zzz', { total: 0 }))).toEqual([])
  })
})
