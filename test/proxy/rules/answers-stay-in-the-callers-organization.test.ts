import { beforeEach, describe, expect, test } from 'vitest'
import { createProxyJudge, violations, type ProxyJudgeHarness } from '../../support/proxy-judge.js'
import { ACME_USERS, listOf, meOf, OUTSIDER, OWNER } from '../../support/proxy-people.js'

let proxy: ProxyJudgeHarness

beforeEach(async () => {
  proxy = await createProxyJudge()
})

describe('answers-stay-in-the-callers-organization', () => {
  test("a user of another organization in the caller's list breaks §4.list.own-organization", () => {
    proxy.judge(meOf('owner', OWNER))
    expect(violations(proxy.judge(listOf('owner', [...ACME_USERS, OUTSIDER])))).toEqual([
      'answers-stay-in-the-callers-organization §4.list.own-organization',
    ])
  })

  test('a user of another organization read by id breaks §3.other-organization, the organization known from a first list', () => {
    expect(proxy.judge(listOf('owner', ACME_USERS))).toEqual([])
    expect(
      violations(
        proxy.judge({ path: '/api/users/usr_outsider', token: 'owner', status: 200, json: { data: OUTSIDER } }),
      ),
    ).toEqual(['answers-stay-in-the-callers-organization §3.other-organization'])
  })

  test('a list that mixes organizations is wrong whoever asked, even before the caller is known', () => {
    expect(violations(proxy.judge(listOf('stranger', [OWNER, OUTSIDER])))).toEqual([
      'answers-stay-in-the-callers-organization §4.list.own-organization',
    ])
  })

  test("answers within the caller's organization say nothing", () => {
    proxy.judge(meOf('owner', OWNER))
    expect(proxy.judge(listOf('owner', ACME_USERS))).toEqual([])
    expect(proxy.judge(meOf('outsider', OUTSIDER))).toEqual([])
  })
})
