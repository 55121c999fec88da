import { beforeEach, describe, expect, test } from 'vitest'
import { createProxyJudge, violations, type ProxyJudgeHarness } from '../../support/proxy-judge.js'
import { ADMIN, meOf, OWNER, patchOf, problem, VIEWER } from '../../support/proxy-people.js'

let proxy: ProxyJudgeHarness

const RULE = 'accepted-tokens-stay-accepted'
const UNAUTHENTICATED = { 'www-authenticate': 'Bearer error="invalid_token"' }

/** GET /api/users/me with a token written `header` (the owner's, unless it names another), answered 401. */
function refusedAs(header: string): string[] {
  const findings = proxy.judge({
    path: '/api/users/me',
    requestHeaders: { authorization: header },
    status: 401,
    headers: UNAUTHENTICATED,
    json: problem(401),
  })
  return violations(findings).filter((violation) => violation.startsWith(RULE))
}

beforeEach(async () => {
  proxy = await createProxyJudge()
  proxy.judge(meOf('owner', OWNER))
})

describe('accepted-tokens-stay-accepted', () => {
  test('the token just accepted, refused with the scheme in lower case, breaks §2.scheme-case', () => {
    expect(refusedAs('bearer owner')).toEqual([`${RULE} §2.scheme-case`])
  })

  test('refused with a tab before it, §2.token-white-space', () => {
    expect(refusedAs('Bearer \towner')).toEqual([`${RULE} §2.token-white-space`])
  })

  test('written as it was accepted, a 401 may be an expiry the contract does not cover: nothing is said', () => {
    expect(refusedAs('Bearer owner')).toEqual([])
  })

  test("a second later, or after a write through the proxy on the token's user, nothing is said", () => {
    proxy.pass(1_001)
    expect(refusedAs('bearer owner')).toEqual([])
    // The admin's token accepted, then the owner suspends the admin: the write may have revoked it.
    proxy.judge(meOf('admin', ADMIN))
    const suspended = { ...ADMIN, status: 'SUSPENDED', updatedAt: '2024-02-01T00:00:00.000Z' }
    proxy.judge(patchOf('owner', 'usr_admin', { status: 'SUSPENDED' }, 200, suspended))
    expect(refusedAs('bearer admin')).toEqual([])
  })

  test('a success of the same token that ends while the refused request is in flight hides nothing before it', () => {
    // verify's checks run side by side: another check's request with the owner's token ends meanwhile.
    const padded = proxy.begin({
      path: '/api/users/me',
      requestHeaders: { authorization: 'Bearer \towner' },
      status: 401,
      headers: UNAUTHENTICATED,
      json: problem(401),
    })
    proxy.judge(meOf('owner', OWNER))
    expect(violations(padded.end()).filter((violation) => violation.startsWith(RULE))).toEqual([
      `${RULE} §2.token-white-space`,
    ])
  })

  test('a token only accepted while its refused request was in flight: nothing is said', async () => {
    proxy = await createProxyJudge()
    const padded = proxy.begin({
      path: '/api/users/me',
      requestHeaders: { authorization: 'Bearer \towner' },
      status: 401,
      headers: UNAUTHENTICATED,
      json: problem(401),
    })
    proxy.judge(meOf('owner', OWNER))
    expect(violations(padded.end()).filter((violation) => violation.startsWith(RULE))).toEqual([])
  })

  test("a write on another user changes nothing of the token's: still §2.scheme-case", () => {
    const renamed = { ...VIEWER, name: 'Vera', updatedAt: '2024-02-01T00:00:00.000Z' }
    proxy.judge(patchOf('viewer', 'usr_viewer', { name: 'Vera' }, 200, renamed))
    expect(refusedAs('bearer owner')).toEqual([`${RULE} §2.scheme-case`])
  })
})
