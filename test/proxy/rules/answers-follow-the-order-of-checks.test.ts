import { beforeEach, describe, expect, test } from 'vitest'
import { createProxyJudge, violations, type ProxyJudgeHarness } from '../../support/proxy-judge.js'
import { ACME_USERS, listOf, OWNER, problem } from '../../support/proxy-people.js'

let proxy: ProxyJudgeHarness

beforeEach(async () => {
  proxy = await createProxyJudge()
})

const UNAUTHENTICATED = { 'www-authenticate': 'Bearer' }

describe('answers-follow-the-order-of-checks', () => {
  test('no token and a 404 breaks §2.missing-header and step 1 before step 2; the client is told its mistake', () => {
    const findings = proxy.judge({ path: '/api/nothing', status: 404, json: problem(404, 'NOT_FOUND') })
    expect(violations(findings)).toEqual([
      'answers-follow-the-order-of-checks §2.missing-header §3.order.401-before-route',
    ])
    expect(findings.filter((finding) => finding.kind === 'client').map((finding) => finding.sentences)).toEqual([
      ['§2.missing-header'],
    ])
  })

  test('no token and a 200 breaks §2.missing-header', () => {
    expect(violations(proxy.judge({ path: '/api/users/me', status: 200, json: { data: OWNER } }))).toEqual([
      'answers-follow-the-order-of-checks §2.missing-header',
    ])
  })

  test("a client's bad request answered as the contract says is the client's mistake alone", () => {
    const findings = proxy.judge({ path: '/api/users/me', status: 401, headers: UNAUTHENTICATED, json: problem(401) })
    expect(violations(findings)).toEqual([])
    expect(findings.map((finding) => `${finding.kind} ${finding.sentences.join(' ')}`)).toEqual([
      'client §2.missing-header',
    ])
  })

  test('a limit out of range answered 200 breaks §4.list.limit (never clamped)', () => {
    expect(violations(proxy.judge(listOf('owner', ACME_USERS, 'limit=500', { limit: 100 })))).toContain(
      'answers-follow-the-order-of-checks §4.list.limit',
    )
  })

  test('role=client_viewer answered 200 breaks §4.list.enum-case', () => {
    expect(violations(proxy.judge(listOf('owner', [], 'role=client_viewer', { total: 0 })))).toEqual([
      'answers-follow-the-order-of-checks §4.list.enum-case',
    ])
  })

  test('a PATCH without Content-Type answered 400 breaks §4.patch.415, and step 4 before step 5', () => {
    const draft = {
      method: 'PATCH',
      path: '/api/users/usr_owner',
      token: 'owner',
      requestBody: '{"name":"x"}',
      status: 400,
      json: problem(400),
    }
    expect(violations(proxy.judge(draft))).toEqual([
      'answers-follow-the-order-of-checks §4.patch.415 §3.order.415-before-400',
    ])
  })

  test("a body over 16 KiB answered 400 breaks §4.bodies.413, and §3's order", () => {
    const draft = {
      method: 'PATCH',
      path: '/api/users/usr_owner',
      token: 'owner',
      requestHeaders: { 'content-type': 'application/json' },
      requestBody: JSON.stringify({ name: 'x'.repeat(17_000) }),
      status: 400,
      json: problem(400),
    }
    expect(violations(proxy.judge(draft))).toEqual(['answers-follow-the-order-of-checks §4.bodies.413 §3.order'])
  })

  test('a PATCH with an unknown key answered 200 breaks §4.patch.400', () => {
    const draft = {
      method: 'PATCH',
      path: '/api/users/usr_owner',
      token: 'owner',
      requestHeaders: { 'content-type': 'application/json' },
      requestBody: JSON.stringify({ name: 'x', nickname: 'y' }),
      status: 200,
      json: { data: { ...OWNER, name: 'x' } },
    }
    expect(violations(proxy.judge(draft))).toEqual(['answers-follow-the-order-of-checks §4.patch.400'])
  })

  test('a valid list request answered 404 past the end breaks §4.list.past-the-end', () => {
    expect(
      violations(
        proxy.judge({ path: '/api/users?page=9', token: 'owner', status: 404, json: problem(404, 'NOT_FOUND') }),
      ),
    ).toContain('answers-follow-the-order-of-checks §4.list.past-the-end')
  })

  test('429 and 503 may come at any step; a second Authorization header is left open', () => {
    expect(
      violations(
        proxy.judge({
          path: '/api/users/me',
          status: 429,
          headers: { 'retry-after': '1' },
          json: { ...problem(429, 'RATE_LIMITED'), title: 'Too Many Requests' },
        }),
      ),
    ).toEqual([])
    const twice = {
      path: '/api/users/me',
      requestHeaders: { authorization: 'Bearer a, Bearer b' },
      status: 200,
      json: { data: OWNER },
    }
    expect(violations(proxy.judge(twice))).toEqual([])
  })
})
