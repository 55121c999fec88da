import { beforeEach, describe, expect, test } from 'vitest'
import { createProxyJudge, violations, type ProxyJudgeHarness } from '../../support/proxy-judge.js'
import { problem } from '../../support/proxy-people.js'

let proxy: ProxyJudgeHarness

const RULE = 'problems-are-worded-as-agreed'

beforeEach(async () => {
  proxy = await createProxyJudge()
})

function judged(findings: ReturnType<ProxyJudgeHarness['judge']>): string[] {
  return violations(findings).filter((violation) => violation.startsWith(RULE))
}

const unknownKeys = (count: number): string =>
  JSON.stringify(Object.fromEntries(Array.from({ length: count }, (_, index) => [`unknown${index}`, index])))

/** The owner's PATCH of `requestBody` answered 400 with `listed` issues and `detail`. */
function refused(requestBody: string, listed: number, detail: string): ReturnType<ProxyJudgeHarness['judge']> {
  const errors = Array.from({ length: listed }, (_, index) => ({ in: 'body', path: `/unknown${index}`, message: 'x' }))
  return proxy.judge({
    method: 'PATCH',
    path: '/api/users/usr_viewer',
    token: 'owner',
    requestHeaders: { 'content-type': 'application/json' },
    requestBody,
    status: 400,
    json: { ...problem(400), detail, errors },
  })
}

describe('problems-are-worded-as-agreed', () => {
  test('about:blank with a title of its own breaks §5.problem.fields; a type of the backend its own is free', () => {
    const notFound = { path: '/api/users/nobody', token: 'owner', status: 404 }
    expect(judged(proxy.judge({ ...notFound, json: { ...problem(404), title: 'Nope' } }))).toEqual([
      `${RULE} §5.problem.fields`,
    ])
    expect(judged(proxy.judge({ ...notFound, json: problem(404) }))).toEqual([])
    const typed = { ...problem(404), type: 'https://errors.example/not-found', title: 'No such user' }
    expect(judged(proxy.judge({ ...notFound, json: typed }))).toEqual([])
  })

  test('413 may keep its earlier reason phrase', () => {
    const tooBig = { path: '/api/users', token: 'owner', status: 413, requestBody: 'x'.repeat(16_385) }
    expect(judged(proxy.judge({ ...tooBig, json: { ...problem(413), title: 'Payload Too Large' } }))).toEqual([])
  })

  test('100 issues listed for 150 unknown keys, with a detail that does not count them, breaks §5.errors.at-most-100', () => {
    expect(judged(refused(unknownKeys(150), 100, 'The body is invalid.'))).toEqual([`${RULE} §5.errors.at-most-100`])
    expect(judged(refused(unknownKeys(150), 100, 'The body has 150 issues; the first 100 are listed.'))).toEqual([])
    expect(judged(refused(unknownKeys(150), 100, '51 more issues are not listed.'))).toEqual([])
    expect(judged(refused(unknownKeys(100), 100, 'The body is invalid.'))).toEqual([])
  })
})
