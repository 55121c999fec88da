import { beforeEach, describe, expect, test } from 'vitest'
import { createProxyJudge, violations, type ProxyDraft, type ProxyJudgeHarness } from '../../support/proxy-judge.js'
import { problem } from '../../support/proxy-people.js'

let proxy: ProxyJudgeHarness

beforeEach(async () => {
  proxy = await createProxyJudge()
})

const RULE = 'valid-requests-are-not-refused'

/** The owner's request, answered `status` with the problem of that status. */
function refused(status: number, draft: Partial<ProxyDraft> & { path: string }): ProxyDraft {
  return { token: 'owner', status, json: problem(status), ...draft }
}

/** The violations of this rule alone. */
function judged(draft: ProxyDraft): string[] {
  return violations(proxy.judge(draft)).filter((violation) => violation.startsWith(RULE))
}

const PATCH = { method: 'PATCH', path: '/api/users/usr_viewer' }
const JSON_BODY = { 'content-type': 'application/json' }

describe('valid-requests-are-not-refused: a request valid by itself answered 400, 413 or 415', () => {
  test('limit at its maximum answered 400 breaks §4.list.limit', () => {
    expect(judged(refused(400, { path: '/api/users?limit=100' }))).toEqual([`${RULE} §4.list.limit`])
  })

  test('a number with leading zeros answered 400 breaks §4.list.decimal', () => {
    expect(judged(refused(400, { path: '/api/users?page=007' }))).toEqual([`${RULE} §4.list.page §4.list.decimal`])
  })

  test('a search of 100 code points outside the BMP (200 UTF-16 units) answered 400 breaks §4.list.search', () => {
    const findings = proxy.judge(refused(400, { path: `/api/users?search=${encodeURIComponent('😀'.repeat(100))}` }))
    expect(violations(findings)).toEqual([`${RULE} §4.list.search`])
    expect(findings[0]?.message).toContain('search is 100 characters')
  })

  test('an unknown parameter answered 400 breaks §4.list.unknown-params', () => {
    expect(judged(refused(400, { path: '/api/users?limit=5&sort=name' }))).toEqual([
      `${RULE} §4.list.limit §4.list.unknown-params`,
    ])
  })

  test('a well-formed id of nobody answered 400 breaks §3.other-ids: it is a 404', () => {
    expect(judged(refused(400, { path: '/api/users/nobody-has-this-id' }))).toEqual([`${RULE} §3.other-ids`])
  })

  test('a PATCH whose Content-Type is in another letter case answered 415 breaks §4.patch.415', () => {
    const draft = refused(415, {
      ...PATCH,
      requestHeaders: { 'content-type': 'Application/JSON; Charset=UTF-8' },
      requestBody: '{"name":"Vic"}',
    })
    expect(judged(draft)).toEqual([`${RULE} §4.patch.415 §4.patch.media-type-case`])
  })

  test('a PATCH body of exactly 16 KiB answered 413 breaks §4.bodies.413', () => {
    const name = '{"name":"Vic"}'
    const requestBody = name + ' '.repeat(16_384 - name.length)
    const findings = proxy.judge(refused(413, { ...PATCH, requestHeaders: JSON_BODY, requestBody }))
    expect(violations(findings)).toEqual([`${RULE} §4.bodies.413`])
    expect(findings[0]?.message).toContain('its body of 16384 bytes is within 16 KiB')
  })

  test('a DELETE with a small body answered 400 or 415 breaks §4.bodies.ignored', () => {
    const deletion = {
      method: 'DELETE',
      path: '/api/users/usr_viewer',
      requestHeaders: { 'content-type': 'text/plain' },
    }
    expect(judged(refused(415, { ...deletion, requestBody: 'why' }))).toEqual([`${RULE} §4.bodies.ignored`])
    expect(judged(refused(400, { ...deletion, requestBody: 'why' }))).toEqual([
      `${RULE} §4.bodies.ignored §3.other-ids`,
    ])
  })

  test('the message says what the proxy read, and the answers a correct backend may give', () => {
    const [finding] = proxy.judge(refused(400, { path: '/api/users?limit=100' }))
    expect(finding?.message).toBe(
      'Received: 400 for GET /api/users?limit=100\nExpected: 200 (403 for a bot), or 401 if the token is refused: the proxy read the whole request, and it has no body; limit=100 is 100, in its range',
    )
  })
})

describe('valid-requests-are-not-refused says nothing where the request is not surely valid', () => {
  test("the client's own mistakes are the order of checks' to judge", () => {
    expect(judged(refused(400, { path: '/api/users?limit=101' }))).toEqual([])
    expect(judged(refused(400, { path: '/api/users?limit=5', token: undefined }))).toEqual([])
    expect(judged(refused(400, { ...PATCH, requestHeaders: JSON_BODY, requestBody: '{"nick":"x"}' }))).toEqual([])
    const tooBig = '{"name":"Vic"}' + ' '.repeat(16_385 - 14)
    expect(judged(refused(413, { ...PATCH, requestHeaders: JSON_BODY, requestBody: tooBig }))).toEqual([])
  })

  test('a request the proxy did not read whole, or read late, is not judged', () => {
    expect(
      judged(refused(400, { ...PATCH, requestHeaders: JSON_BODY, requestBody: '{"name":"Vic"}', whole: false })),
    ).toEqual([])
  })

  test('readings the contract leaves open: a query that does not decode, another charset', () => {
    expect(judged(refused(400, { path: '/api/users?search=%ZZ' }))).toEqual([])
    const latin1 = { 'content-type': 'application/json; charset=iso-8859-1' }
    expect(judged(refused(415, { ...PATCH, requestHeaders: latin1, requestBody: '{"name":"Vic"}' }))).toEqual([])
  })

  test('a mock asked for the error with Prefer: code=400 is not judged', () => {
    expect(judged(refused(400, { path: '/api/users?limit=5', requestHeaders: { prefer: 'code=400' } }))).toEqual([])
  })

  test("a valid request answered with the operation's own refusals is fine", () => {
    expect(judged(refused(404, { path: '/api/users/nobody-has-this-id' }))).toEqual([])
    expect(judged(refused(403, { path: '/api/users?limit=100' }))).toEqual([])
    expect(judged(refused(401, { path: '/api/users?limit=100', headers: { 'www-authenticate': 'Bearer' } }))).toEqual(
      [],
    )
  })
})
