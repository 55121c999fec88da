import { beforeEach, describe, expect, test } from 'vitest'
import { createProxyJudge, violations, type ProxyJudgeHarness } from '../../support/proxy-judge.js'
import { ACME_USERS, BOT, listOf, meOf, OWNER, problem } from '../../support/proxy-people.js'

let proxy: ProxyJudgeHarness
const UNAUTHENTICATED = { 'www-authenticate': 'Bearer error="invalid_token"' }

beforeEach(async () => {
  proxy = await createProxyJudge()
  proxy.judge(meOf('owner', OWNER))
  proxy.judge(meOf('bot', BOT))
  expect(proxy.judge({ method: 'DELETE', path: '/api/users/usr_bot', token: 'owner', status: 204 })).toEqual([])
})

describe('deleted-users-stay-gone, refused-tokens-get-401', () => {
  test('a deleted user in a later list breaks §4.delete.after', () => {
    expect(violations(proxy.judge(listOf('owner', ACME_USERS)))).toEqual(['deleted-users-stay-gone §4.delete.after'])
  })

  test('a GET of the deleted id answered 200 breaks §4.delete.after; a 404 is right', () => {
    expect(
      violations(proxy.judge({ path: '/api/users/usr_bot', token: 'owner', status: 200, json: { data: BOT } })),
    ).toEqual(['deleted-users-stay-gone §4.delete.after'])
    expect(proxy.judge({ path: '/api/users/usr_bot', token: 'owner', status: 404, json: problem(404) })).toEqual([])
  })

  test("the deleted user's token answered 200 breaks §2.deleted-token; a 401 is right", () => {
    expect(
      violations(proxy.judge({ path: '/api/users/me', token: 'bot', status: 200, json: { data: BOT } })),
    ).toContain('refused-tokens-get-401 §2.deleted-token')
    expect(
      proxy.judge({ path: '/api/users/me', token: 'bot', status: 401, headers: UNAUTHENTICATED, json: problem(401) }),
    ).toEqual([])
  })

  test('an answer to a request sent while the DELETE was in flight says nothing', async () => {
    const fresh = await createProxyJudge()
    const read = fresh.begin({
      path: '/api/users/usr_admin',
      token: 'owner',
      status: 200,
      json: { data: ACME_USERS[1] },
    })
    expect(fresh.judge({ method: 'DELETE', path: '/api/users/usr_admin', token: 'owner', status: 204 })).toEqual([])
    expect(violations(read.end())).toEqual([])
  })
})
