import { beforeEach, describe, expect, test } from 'vitest'
import { createProxyJudge, violations, type ProxyJudgeHarness } from '../../support/proxy-judge.js'
import { meOf, patchOf, VIEWER } from '../../support/proxy-people.js'

let proxy: ProxyJudgeHarness
const later = '2024-01-09T00:00:00.000Z'

beforeEach(async () => {
  proxy = await createProxyJudge()
  proxy.judge(meOf('viewer', VIEWER))
})

describe('updated-at-moves-only-on-a-change', () => {
  test('a PATCH to the same values that moves updatedAt breaks §4.patch.same-value', () => {
    const answer = { ...VIEWER, updatedAt: later }
    expect(violations(proxy.judge(patchOf('owner', 'usr_viewer', { name: ' Vic Viewer ' }, 200, answer)))).toEqual([
      'updated-at-moves-only-on-a-change §4.patch.same-value',
    ])
  })

  test('a change that keeps updatedAt breaks §1.updated-at', () => {
    expect(
      violations(proxy.judge(patchOf('owner', 'usr_viewer', { name: 'Vera' }, 200, { ...VIEWER, name: 'Vera' }))),
    ).toEqual(['updated-at-moves-only-on-a-change §1.updated-at'])
  })

  test('right both ways, whole seconds or not: a change moves updatedAt, the same PATCH again keeps it', () => {
    // The viewer's /me showed updatedAt 09:03:00.000Z; a backend of whole seconds answers the change so.
    const renamed = { ...VIEWER, name: 'Vera', updatedAt: '2024-01-09T00:00:00Z' }
    const change = patchOf('owner', 'usr_viewer', { name: 'Vera' }, 200, renamed)
    expect(proxy.judge(change)).toEqual([])
    expect(proxy.judge(change)).toEqual([])
  })

  test('nothing is said when another write of the user may have come in between', () => {
    const other = proxy.begin(
      patchOf('admin', 'usr_viewer', { name: 'Zed' }, 200, { ...VIEWER, name: 'Zed', updatedAt: later }),
    )
    const same = proxy.begin(
      patchOf('owner', 'usr_viewer', { name: 'Vic Viewer' }, 200, { ...VIEWER, updatedAt: later }),
    )
    other.end()
    expect(violations(same.end())).toEqual([])
  })
})
