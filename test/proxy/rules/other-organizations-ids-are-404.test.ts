import { beforeEach, describe, expect, test } from 'vitest'
import { createProxyJudge, violations, type ProxyJudgeHarness } from '../../support/proxy-judge.js'
import { meOf, OUTSIDER, OWNER, patchOf, problem } from '../../support/proxy-people.js'

let proxy: ProxyJudgeHarness

beforeEach(async () => {
  proxy = await createProxyJudge()
  proxy.judge(meOf('owner', OWNER))
  proxy.judge(meOf('outsider', OUTSIDER))
})

describe('other-organizations-ids-are-404', () => {
  test("a 403 for another organization's user breaks §3.other-organization", () => {
    expect(
      violations(proxy.judge({ path: '/api/users/usr_outsider', token: 'owner', status: 403, json: problem(403) })),
    ).toEqual(['other-organizations-ids-are-404 §3.other-organization'])
  })

  test("a DELETE of another organization's user answered 204 breaks it too", () => {
    expect(
      violations(proxy.judge({ method: 'DELETE', path: '/api/users/usr_outsider', token: 'owner', status: 204 })),
    ).toEqual(['other-organizations-ids-are-404 §3.other-organization'])
  })

  test('a 404 is right; and a PATCH whose body is bad is a 400 first, which the order of checks judges', () => {
    expect(proxy.judge({ path: '/api/users/usr_outsider', token: 'owner', status: 404, json: problem(404) })).toEqual(
      [],
    )
    const findings = proxy.judge(patchOf('owner', 'usr_outsider', { nickname: 'x' }, 400))
    expect(violations(findings)).toEqual([])
    expect(findings.map((finding) => finding.kind)).toEqual(['client'])
  })
})
