import { beforeEach, describe, expect, test } from 'vitest'
import { createProxyJudge, violations, type ProxyJudgeHarness } from '../../support/proxy-judge.js'
import { patchOf, VIEWER } from '../../support/proxy-people.js'

let proxy: ProxyJudgeHarness
const later = '2024-01-09T00:00:00.000Z'

beforeEach(async () => {
  proxy = await createProxyJudge()
})

describe('patch-answers-what-was-asked', () => {
  test('an answer that does not show the value sent breaks §4.patch.answer', () => {
    const answer = { ...VIEWER, status: 'ACTIVE', updatedAt: later }
    expect(violations(proxy.judge(patchOf('owner', 'usr_viewer', { status: 'SUSPENDED' }, 200, answer)))).toEqual([
      'patch-answers-what-was-asked §4.patch.answer',
    ])
  })

  test('a name answered untrimmed breaks §1.name; trimmed, it is what was asked', () => {
    const untrimmed = { ...VIEWER, name: '  Vera  ', updatedAt: later }
    expect(violations(proxy.judge(patchOf('owner', 'usr_viewer', { name: '  Vera  ' }, 200, untrimmed)))).toEqual([
      'patch-answers-what-was-asked §4.patch.answer §1.name',
      'names-are-stored-trimmed §1.name',
    ])
    expect(
      proxy.judge(
        patchOf('owner', 'usr_viewer', { name: '  Vera  ' }, 200, {
          ...VIEWER,
          name: 'Vera',
          updatedAt: '2024-01-10T00:00:00.000Z',
        }),
      ),
    ).toEqual([])
  })

  test('another user answered breaks §4.patch.answer', () => {
    expect(
      violations(
        proxy.judge(patchOf('owner', 'usr_viewer', { name: 'X' }, 200, { ...VIEWER, id: 'usr_other', name: 'X' })),
      ),
    ).toEqual(['patch-answers-what-was-asked §4.patch.answer'])
  })
})
