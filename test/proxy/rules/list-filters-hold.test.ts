import { beforeEach, describe, expect, test } from 'vitest'
import { createProxyJudge, violations, type ProxyJudgeHarness } from '../../support/proxy-judge.js'
import { ADMIN, listOf, VIEWER } from '../../support/proxy-people.js'

let proxy: ProxyJudgeHarness

beforeEach(async () => {
  proxy = await createProxyJudge()
})

describe('list-filters-hold', () => {
  test('a user of another role in a role= list breaks §4.list.role', () => {
    expect(violations(proxy.judge(listOf('owner', [ADMIN, VIEWER], 'role=CLIENT_ADMIN')))).toEqual([
      'list-filters-hold §4.list.role',
    ])
  })

  test('a user that does not hold the term breaks §4.list.search; case is ignored', () => {
    expect(proxy.judge(listOf('owner', [ADMIN], 'search=ADA'))).toEqual([])
    expect(violations(proxy.judge(listOf('owner', [ADMIN, VIEWER], 'search=ada')))).toEqual([
      'list-filters-hold §4.list.search',
    ])
  })

  test('% and _ are text: a LIKE pattern match breaks §4.list.search', () => {
    expect(violations(proxy.judge(listOf('owner', [ADMIN], 'search=a%25n')))).toEqual([
      'list-filters-hold §4.list.search',
    ])
  })

  test('a final sigma lower-cased either way is held', () => {
    const greek = { ...ADMIN, name: 'ΟΔΥΣΣΕΥΣ' }
    expect(proxy.judge(listOf('owner', [greek], `search=${encodeURIComponent('υσσευς')}`))).toEqual([])
    expect(proxy.judge(listOf('owner', [greek], `search=${encodeURIComponent('υσσευσ')}`))).toEqual([])
  })

  test('a dotted capital I lower-cased either way is held: İlkay is listed for ilkay, or not', () => {
    const ilkay = { ...ADMIN, name: 'İlkay Gündoğan' }
    expect(proxy.judge(listOf('owner', [ilkay], 'search=ilkay'))).toEqual([])
    expect(proxy.judge(listOf('owner', [], 'search=ilkay'))).toEqual([])
    expect(proxy.judge(listOf('owner', [ilkay], `search=${encodeURIComponent('i̇lkay')}`))).toEqual([])
  })
})
