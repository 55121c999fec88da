import { describe, expect, test } from 'vitest'
import type { MockState } from '../../src/domain/mock-state.js'
import { UserStore } from '../../src/domain/user-store.js'
import { createUsersApiMock } from '../../src/mock-instance/create-users-api-mock.js'
import { StateHolder } from '../../src/mock-instance/state-holder.js'

// The store never changes a user object it holds: an update stores a changed copy. That is what lets a
// reset's baseline share the seed's objects with the store instead of holding a copy of every user.

const JAN = '2024-01-08T09:00:00.000Z'
const STATE: MockState = {
  organizations: [{ id: 'org_a', name: 'A' }],
  users: [
    {
      id: 'usr_owner',
      email: 'owner@a.example',
      name: 'Olivia Owner',
      role: 'CLIENT_OWNER',
      organizationId: 'org_a',
      status: 'ACTIVE',
      createdAt: JAN,
      updatedAt: JAN,
      token: 'owner-token',
    },
    {
      id: 'usr_viewer',
      email: 'victor@a.example',
      name: 'Victor Viewer',
      role: 'CLIENT_VIEWER',
      organizationId: 'org_a',
      status: 'ACTIVE',
      createdAt: '2024-01-09T09:00:00.000Z',
      updatedAt: '2024-01-09T09:00:00.000Z',
    },
  ],
}
const LATER = new Date('2025-03-01T00:00:00.000Z')

describe('a stored user is replaced by an update, never changed', () => {
  test('the object read before a PATCH keeps its values; the store answers with the new one', () => {
    const store = new UserStore(STATE, () => LATER)
    const owner = store.authenticate('owner-token')
    const before = store.getUser(owner, 'usr_viewer')
    const after = store.updateUser(owner, 'usr_viewer', { name: 'Victor Renamed', status: 'SUSPENDED' })
    expect(after).not.toBe(before)
    expect([Object.isFrozen(before), Object.isFrozen(after)]).toEqual([true, true])
    expect(before).toMatchObject({ name: 'Victor Viewer', status: 'ACTIVE', updatedAt: '2024-01-09T09:00:00.000Z' })
    expect(after).toMatchObject({ name: 'Victor Renamed', status: 'SUSPENDED', updatedAt: LATER.toISOString() })
    expect(store.getUser(owner, 'usr_viewer')).toBe(after)
    expect(store.listUsers(owner, { page: 1, limit: 20, search: 'victor' }).data).toEqual([after])
  })

  test('a reset returns to the seed, whose users the first store shares instead of copying', () => {
    const holder = new StateHolder(STATE, () => LATER)
    const owner = holder.store.authenticate('owner-token')
    const seedUsers = holder.seed.members.map((member) => member.user)
    expect(seedUsers).toEqual(holder.store.listUsers(owner, { page: 1, limit: 20 }).data)
    expect(seedUsers[1]).toBe(holder.store.getUser(owner, 'usr_viewer'))
    expect(Object.isFrozen(holder.seed.members[1])).toBe(true)
    holder.store.updateUser(owner, 'usr_viewer', { role: 'CLIENT_ADMIN' })
    holder.store.deleteUser(owner, 'usr_viewer')
    holder.reset()
    expect(holder.store.exportState()).toEqual(STATE)
    expect(holder.store.getUser(holder.store.authenticate('owner-token'), 'usr_viewer').role).toBe('CLIENT_VIEWER')
  })

  test("a user's token is not a field of the stored user, and a document's own fields are kept", () => {
    // JSON.parse makes __proto__ an own field, as a fixture file read by a document of one's own would.
    const extra = JSON.parse('{"department":"Research","__proto__":{"nickname":"Vic"}}') as object
    const withExtras = { ...STATE.users[1]!, ...extra }
    const store = new UserStore({ organizations: STATE.organizations, users: [STATE.users[0]!, withExtras] })
    const owner = store.authenticate('owner-token')
    expect(Object.keys(owner)).not.toContain('token')
    const viewer = store.getUser(owner, 'usr_viewer')
    expect(Object.getPrototypeOf(viewer)).toBe(Object.prototype)
    expect(JSON.parse(JSON.stringify(viewer))).toMatchObject({
      department: 'Research',
      ['__proto__']: { nickname: 'Vic' },
    })
  })

  test('a request that waits (Prefer: delay) acts as its caller is once the wait is over', async () => {
    const mock = await createUsersApiMock()
    const send = (method: string, url: string, token: string, body?: unknown, prefer?: string) =>
      mock.handle({
        method,
        url,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(prefer === undefined ? {} : { prefer }),
        },
        ...(body === undefined ? {} : { body: new TextEncoder().encode(JSON.stringify(body)) }),
      })
    const admin = await mock.handle({
      method: 'GET',
      url: '/api/users/me',
      headers: { authorization: 'Bearer admin-token' },
    })
    const adminId = (JSON.parse(admin.body as string) as { data: { id: string } }).data.id
    const viewers = await send('GET', '/api/users?role=CLIENT_VIEWER&limit=1', 'owner-token')
    const viewerId = (JSON.parse(viewers.body as string) as { data: Array<{ id: string }> }).data[0]!.id
    const waiting = send('DELETE', `/api/users/${viewerId}`, 'admin-token', undefined, 'delay=100')
    expect((await send('PATCH', `/api/users/${adminId}`, 'owner-token', { role: 'CLIENT_VIEWER' })).status).toBe(200)
    // A viewer may not delete: the demotion during the wait holds.
    expect((await waiting).status).toBe(403)
  })

  test.each([
    ['suspended', (id: string) => ['PATCH', `/api/users/${id}`, { status: 'SUSPENDED' }] as const],
    ['deleted', (id: string) => ['DELETE', `/api/users/${id}`, undefined] as const],
  ])(
    'a caller %s during the wait is refused once it is over (401), as a request arriving then is',
    async (_, change) => {
      const fixtures = {
        ...STATE,
        users: STATE.users.map((user) => (user.id === 'usr_viewer' ? { ...user, token: 'viewer-token' } : user)),
      }
      const mock = await createUsersApiMock({ fixtures, users: 0 })
      const headers = (token: string, extra: Record<string, string> = {}) => ({
        authorization: `Bearer ${token}`,
        ...extra,
      })
      const waiting = mock.handle({
        method: 'GET',
        url: '/api/users/me',
        headers: headers('viewer-token', { prefer: 'delay=100' }),
      })
      const unchanged = await mock.handle({
        method: 'GET',
        url: '/api/users/me',
        headers: headers('viewer-token', { prefer: 'delay=1' }),
      })
      expect(unchanged.status).toBe(200)
      const [method, url, body] = change('usr_viewer')
      const changed = await mock.handle({
        method,
        url,
        headers: headers('owner-token', body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(body === undefined ? {} : { body: new TextEncoder().encode(JSON.stringify(body)) }),
      })
      expect(changed.status).toBeLessThan(300)
      const answer = await waiting
      expect(answer.status).toBe(401)
      expect(answer.headers['www-authenticate']).toContain('invalid_token')
      // Not authenticated: no role for the request log, as for a 401 on arrival.
      expect(answer.role).toBeUndefined()
    },
  )

  test('a request that waits over a reset acts on the state as it is after it', async () => {
    const mock = await createUsersApiMock({ fixtures: STATE, users: 0 })
    const owner = { authorization: 'Bearer owner-token', 'content-type': 'application/json' }
    const rename = (name: string, prefer?: string) =>
      mock.handle({
        method: 'PATCH',
        url: '/api/users/usr_viewer',
        headers: prefer === undefined ? owner : { ...owner, prefer },
        body: new TextEncoder().encode(JSON.stringify({ name })),
      })
    const waiting = rename('Renamed Late', 'delay=100')
    mock.reset()
    expect((await waiting).status).toBe(200)
    const viewer = await mock.handle({ method: 'GET', url: '/api/users/usr_viewer', headers: owner })
    expect((JSON.parse(viewer.body as string) as { data: { name: string } }).data.name).toBe('Renamed Late')
  })

  test("mock.seed is a copy made at each read: changing one changes neither the next nor the mock's state", async () => {
    const mock = await createUsersApiMock({ fixtures: STATE, users: 0 })
    const first = mock.seed
    first.users.pop()
    first.organizations[0]!.name = 'Changed'
    expect(mock.seed).toEqual(STATE)
    expect(mock.exportState()).toEqual(STATE)
  })
})
