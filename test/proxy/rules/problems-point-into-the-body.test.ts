import { beforeEach, describe, expect, test } from 'vitest'
import { createProxyJudge, violations, type ProxyJudgeHarness } from '../../support/proxy-judge.js'
import { problem } from '../../support/proxy-people.js'

let proxy: ProxyJudgeHarness

beforeEach(async () => {
  proxy = await createProxyJudge()
})

const RULE = 'problems-point-into-the-body'

/** The owner's PATCH of `body`, answered 400 with issues "in": "body" at `pointers`. */
function refusedAt(body: unknown, ...pointers: string[]): string[] {
  const errors = pointers.map((path) => ({ in: 'body', path, message: 'is wrong' }))
  const findings = proxy.judge({
    method: 'PATCH',
    path: '/api/users/usr_viewer',
    token: 'owner',
    requestHeaders: { 'content-type': 'application/json' },
    requestBody: JSON.stringify(body),
    status: 400,
    json: { ...problem(400), errors },
  })
  return violations(findings).filter((violation) => violation.startsWith(RULE))
}

describe('problems-point-into-the-body', () => {
  test('a key holding / or ~ pointed at unescaped breaks §5.errors.escaped', () => {
    expect(refusedAt({ 'a/b': 1 }, '/a/b')).toEqual([`${RULE} §5.errors.escaped §5.errors.pointer`])
    expect(refusedAt({ 'c~d': 1 }, '/c~d')).toEqual([`${RULE} §5.errors.escaped §5.errors.pointer`])
  })

  test('an issue at a key the body does not have breaks §5.errors.pointer', () => {
    // The role's issue pointed at the name, which was not sent.
    expect(refusedAt({ role: 'KING' }, '/name')).toEqual([`${RULE} §5.errors.pointer`])
    expect(refusedAt({ name: 'Ada' }, 'name')).toEqual([`${RULE} §5.errors.pointer`])
  })

  test('pointers as RFC 6901 writes them, and the whole body, are right', () => {
    expect(refusedAt({ 'a/b': 1, 'c~d': 2 }, '/a~1b', '/c~0d', '')).toEqual([])
    expect(refusedAt({ name: 42, role: 'KING' }, '/name', '/role')).toEqual([])
    expect(refusedAt(['Ada'], '')).toEqual([])
  })

  test('"give at least one of name, role, status" may point at one of them when the body has none', () => {
    expect(refusedAt({}, '/name')).toEqual([])
    expect(refusedAt({ nickname: 'x' }, '/nickname', '/status')).toEqual([])
  })

  test('the message names the key and its escaped pointer', () => {
    const [finding] = proxy
      .judge({
        method: 'PATCH',
        path: '/api/users/usr_viewer',
        token: 'owner',
        requestHeaders: { 'content-type': 'application/json' },
        requestBody: '{"a/b":1}',
        status: 400,
        json: { ...problem(400), errors: [{ in: 'body', path: '/a/b', message: 'unknown key' }] },
      })
      .filter((entry) => entry.check === RULE)
    expect(finding?.message).toContain('Expected: "/a~1b": RFC 6901 escapes ~ as ~0 and / as ~1')
  })
})
