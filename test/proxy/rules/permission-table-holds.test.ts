import { beforeEach, describe, expect, test } from 'vitest'
import { createProxyJudge, violations, type ProxyJudgeHarness } from '../../support/proxy-judge.js'
import { ADMIN, BOT, listOf, meOf, OWNER, patchOf, problem, VIEWER, ACME_USERS } from '../../support/proxy-people.js'

// docs/contract.md §3, judged from traffic: the caller's role known from their /me, the target's from answers.

let proxy: ProxyJudgeHarness

beforeEach(async () => {
  proxy = await createProxyJudge()
  for (const [token, user] of [
    ['owner', OWNER],
    ['admin', ADMIN],
    ['viewer', VIEWER],
    ['bot', BOT],
  ] as const)
    expect(proxy.judge(meOf(token, user))).toEqual([])
})

describe('permission-table-holds', () => {
  test('a bot whose list is answered 200 breaks §3.list.refuses', () => {
    expect(violations(proxy.judge(listOf('bot', ACME_USERS)))).toEqual(['permission-table-holds §3.list.refuses'])
  })

  test('a bot reading another user by id, answered 200, breaks §3.read.refuses; itself is fine', () => {
    expect(
      violations(proxy.judge({ path: '/api/users/usr_viewer', token: 'bot', status: 200, json: { data: VIEWER } })),
    ).toEqual(['permission-table-holds §3.read.refuses'])
    expect(proxy.judge({ path: '/api/users/usr_bot', token: 'bot', status: 200, json: { data: BOT } })).toEqual([])
  })

  test('a viewer renaming a colleague, answered 200, breaks §3.name.refuses; renaming themselves is fine', () => {
    const renamed = { ...ADMIN, name: 'New', updatedAt: '2024-01-09T00:00:00.000Z' }
    expect(violations(proxy.judge(patchOf('viewer', 'usr_admin', { name: 'New' }, 200, renamed)))).toEqual([
      'permission-table-holds §3.name.refuses',
    ])
    const self = { ...VIEWER, name: 'Me', updatedAt: '2024-01-09T00:00:00.000Z' }
    expect(proxy.judge(patchOf('viewer', 'usr_viewer', { name: 'Me' }, 200, self))).toEqual([])
  })

  test('an admin renaming an owner breaks §3.name.refuses: the answer shows the role the PATCH left alone', () => {
    const renamed = { ...OWNER, name: 'New', updatedAt: '2024-01-09T00:00:00.000Z' }
    expect(violations(proxy.judge(patchOf('admin', 'usr_owner', { name: 'New' }, 200, renamed)))).toEqual([
      'permission-table-holds §3.name.refuses',
    ])
  })

  test('an admin making someone an owner breaks §3.role-status.refuses', () => {
    const promoted = { ...VIEWER, role: 'CLIENT_OWNER', updatedAt: '2024-01-09T00:00:00.000Z' }
    expect(violations(proxy.judge(patchOf('admin', 'usr_viewer', { role: 'CLIENT_OWNER' }, 200, promoted)))).toEqual([
      'permission-table-holds §3.role-status.refuses',
    ])
  })

  test('anyone changing their own role breaks §3.self.role-status; deleting themselves, §3.self.delete', () => {
    const demoted = { ...OWNER, role: 'CLIENT_ADMIN', updatedAt: '2024-01-09T00:00:00.000Z' }
    expect(violations(proxy.judge(patchOf('owner', 'usr_owner', { role: 'CLIENT_ADMIN' }, 200, demoted)))).toEqual([
      'permission-table-holds §3.self.role-status',
    ])
    expect(
      violations(proxy.judge({ method: 'DELETE', path: '/api/users/usr_admin', token: 'admin', status: 204 })),
    ).toEqual(['permission-table-holds §3.self.delete'])
  })

  test('a viewer deleting, answered 204, breaks §3.delete.refuses; the owner deleting is fine', () => {
    expect(
      violations(proxy.judge({ method: 'DELETE', path: '/api/users/usr_bot', token: 'viewer', status: 204 })),
    ).toEqual(['permission-table-holds §3.delete.refuses'])
    expect(proxy.judge({ method: 'DELETE', path: '/api/users/usr_admin', token: 'owner', status: 204 })).toEqual([])
  })

  test('an admin deleting an owner breaks §3.delete.refuses when the owner was seen as such, and nothing was written since', () => {
    expect(
      violations(proxy.judge({ method: 'DELETE', path: '/api/users/usr_owner', token: 'admin', status: 204 })),
    ).toEqual(['permission-table-holds §3.delete.refuses'])
  })

  test('nothing is said of an admin deleting a user whose role may have changed in between', () => {
    // A PATCH of that user is in flight while the DELETE is sent: its role is not known for sure.
    const promote = proxy.begin(
      patchOf('owner', 'usr_viewer', { role: 'CLIENT_OWNER' }, 200, { ...VIEWER, role: 'CLIENT_OWNER' }),
    )
    const remove = proxy.begin({ method: 'DELETE', path: '/api/users/usr_viewer', token: 'admin', status: 204 })
    promote.end()
    expect(violations(remove.end())).toEqual([])
  })

  test('a 403 the table allows breaks it too: the owner refused the list', () => {
    expect(violations(proxy.judge({ path: '/api/users', token: 'owner', status: 403, json: problem(403) }))).toEqual([
      'permission-table-holds §3.list.allows',
    ])
  })

  test('a caller whose /me the proxy never saw is not judged', () => {
    expect(violations(proxy.judge(listOf('someone-else', ACME_USERS)))).toEqual([])
  })
})
