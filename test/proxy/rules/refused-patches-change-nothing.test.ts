import { beforeEach, describe, expect, test } from 'vitest'
import { createProxyJudge, violations, type ProxyJudgeHarness } from '../../support/proxy-judge.js'
import { meOf, patchOf, VIEWER } from '../../support/proxy-people.js'

let proxy: ProxyJudgeHarness

beforeEach(async () => {
  proxy = await createProxyJudge()
  proxy.judge(meOf('viewer', VIEWER))
})

describe('refused-patches-change-nothing', () => {
  test('the valid part of a body refused with 400, applied all the same, breaks §5.400-changes-nothing', () => {
    expect(violations(proxy.judge(patchOf('owner', 'usr_viewer', { name: 'Vera', role: 'KING' }, 400)))).toEqual([])
    const renamed = { ...VIEWER, name: 'Vera', updatedAt: '2024-01-09T00:00:00.000Z' }
    expect(
      violations(proxy.judge({ path: '/api/users/usr_viewer', token: 'owner', status: 200, json: { data: renamed } })),
    ).toEqual(['refused-patches-change-nothing §5.400-changes-nothing'])
  })

  test('unchanged after the 400, nothing is said; nor after a later write', () => {
    proxy.judge(patchOf('owner', 'usr_viewer', { name: 'Vera', role: 'KING' }, 400))
    expect(proxy.judge({ path: '/api/users/usr_viewer', token: 'owner', status: 200, json: { data: VIEWER } })).toEqual(
      [],
    )
    const renamed = { ...VIEWER, name: 'Vera', updatedAt: '2024-01-09T00:00:00.000Z' }
    expect(proxy.judge(patchOf('owner', 'usr_viewer', { name: 'Vera' }, 200, renamed))).toEqual([])
    expect(
      proxy.judge({ path: '/api/users/usr_viewer', token: 'owner', status: 200, json: { data: renamed } }),
    ).toEqual([])
  })

  test('the valid part of a body refused with 409, applied all the same, breaks §4.patch.409-changes-nothing', () => {
    const invited = { ...VIEWER, id: 'usr_invited', status: 'INVITED' }
    proxy.judge({ path: '/api/users/usr_invited', token: 'owner', status: 200, json: { data: invited } })
    expect(violations(proxy.judge(patchOf('owner', 'usr_invited', { name: 'Ivy', status: 'SUSPENDED' }, 409)))).toEqual(
      [],
    )
    const renamed = { ...invited, name: 'Ivy', updatedAt: '2024-01-09T00:00:00.000Z' }
    expect(
      violations(proxy.judge({ path: '/api/users/usr_invited', token: 'owner', status: 200, json: { data: renamed } })),
    ).toEqual(['refused-patches-change-nothing §4.patch.409-changes-nothing'])
  })
})
