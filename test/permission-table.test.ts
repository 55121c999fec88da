import type { FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import type { Role } from '../src/domain/user.js'
import { createMockApp } from '../src/server/start-mock.js'
import { addDisposableUsers } from './support/add-disposable-users.js'
import type { ApiRequest, Problem, UserEnvelope, UserList } from './support/api-exchange.js'
import { injectApi } from './support/inject-api.js'
import { mockStateOf } from './support/mock-state-of.js'
import { namedUser } from './support/named-users.js'

// CONTRACT §3, row by row and role by role. Each case runs on a fresh app: allowed cases write.

const CALLERS = [
  { role: 'CLIENT_OWNER', token: 'owner-token' },
  { role: 'CLIENT_ADMIN', token: 'admin-token' },
  { role: 'CLIENT_VIEWER', token: 'viewer-token' },
  { role: 'BOT_USER', token: 'bot-token' },
] as const satisfies ReadonlyArray<{ role: Role; token: string }>

type Caller = (typeof CALLERS)[number]

type TargetKind = 'themselves' | 'another member' | 'an owner' | 'a user of another organization' | 'an unknown id'

interface Action {
  /** What the caller tries, as the test name says it. */
  verb: string
  request(id: string, caller: Caller): ApiRequest
  /** What a success must show. */
  expectEffect(app: FastifyInstance, id: string): Promise<void>
}

const OTHER_ROLE: Record<Role, Role> = {
  CLIENT_OWNER: 'CLIENT_VIEWER',
  CLIENT_ADMIN: 'CLIENT_VIEWER',
  CLIENT_VIEWER: 'CLIENT_ADMIN',
  BOT_USER: 'CLIENT_VIEWER',
}

const patch = (id: string, caller: Caller, body: object): ApiRequest => ({
  method: 'PATCH',
  url: `/api/users/${id}`,
  token: caller.token,
  body,
})

/** The target as the first owner sees it; that owner is never changed by an allowed case. */
async function readAsOwner(app: FastifyInstance, id: string): Promise<UserEnvelope['data']> {
  const read = await injectApi<UserEnvelope>(app, { url: `/api/users/${id}`, token: 'owner-token' })
  expect(read.status).toBe(200)
  return read.body.data
}

const ACTIONS = {
  read: {
    verb: 'read',
    request: (id, caller) => ({ url: `/api/users/${id}`, token: caller.token }),
    expectEffect: async () => undefined,
  },
  rename: {
    verb: 'rename',
    request: (id, caller) => patch(id, caller, { name: 'Renamed By The Table' }),
    expectEffect: async (app, id) => expect((await readAsOwner(app, id)).name).toBe('Renamed By The Table'),
  },
  reRole: {
    verb: 'change the role of',
    request: (id, caller) =>
      patch(id, caller, { role: id === namedUser(caller.token).id ? OTHER_ROLE[caller.role] : 'CLIENT_ADMIN' }),
    expectEffect: async (app, id) => expect((await readAsOwner(app, id)).role).toBe('CLIENT_ADMIN'),
  },
  reRoleToCurrent: {
    verb: 'set (to its current value) the role of',
    request: (id, caller) => patch(id, caller, { role: caller.role }),
    expectEffect: async () => undefined,
  },
  makeOwner: {
    verb: 'make a CLIENT_OWNER of',
    request: (id, caller) => patch(id, caller, { role: 'CLIENT_OWNER' }),
    expectEffect: async (app, id) => expect((await readAsOwner(app, id)).role).toBe('CLIENT_OWNER'),
  },
  suspend: {
    verb: 'suspend',
    request: (id, caller) => patch(id, caller, { status: 'SUSPENDED' }),
    expectEffect: async (app, id) => expect((await readAsOwner(app, id)).status).toBe('SUSPENDED'),
  },
  setActive: {
    verb: 'set (to its current value ACTIVE) the status of',
    request: (id, caller) => patch(id, caller, { status: 'ACTIVE' }),
    expectEffect: async () => undefined,
  },
  delete: {
    verb: 'delete',
    request: (id, caller) => ({ method: 'DELETE', url: `/api/users/${id}`, token: caller.token }),
    expectEffect: async (app, id) => {
      expect((await injectApi(app, { url: `/api/users/${id}`, token: 'owner-token' })).status).toBe(404)
    },
  },
} satisfies Record<string, Action>

type Row = [
  action: keyof typeof ACTIONS,
  target: TargetKind,
  expected: [owner: number, admin: number, viewer: number, bot: number],
]

/** CONTRACT §3's table, and its rules for everyone. */
const TABLE: Row[] = [
  // [action, target, [CLIENT_OWNER, CLIENT_ADMIN, CLIENT_VIEWER, BOT_USER]]
  ['read', 'themselves', [200, 200, 200, 200]],
  ['read', 'another member', [200, 200, 200, 403]],
  ['read', 'an owner', [200, 200, 200, 403]],
  ['rename', 'themselves', [200, 200, 200, 200]],
  ['rename', 'another member', [200, 200, 403, 403]],
  ['rename', 'an owner', [200, 403, 403, 403]],
  ['reRole', 'themselves', [403, 403, 403, 403]],
  ['reRoleToCurrent', 'themselves', [403, 403, 403, 403]],
  ['reRole', 'another member', [200, 200, 403, 403]],
  ['reRole', 'an owner', [200, 403, 403, 403]],
  ['makeOwner', 'another member', [200, 403, 403, 403]],
  ['suspend', 'themselves', [403, 403, 403, 403]],
  ['setActive', 'themselves', [403, 403, 403, 403]],
  ['suspend', 'another member', [200, 200, 403, 403]],
  ['suspend', 'an owner', [200, 403, 403, 403]],
  ['delete', 'themselves', [403, 403, 403, 403]],
  ['delete', 'another member', [204, 204, 403, 403]],
  ['delete', 'an owner', [204, 403, 403, 403]],
  // Existence never leaks across organizations: 404 for every caller, also where the role forbids the action.
  ...(['read', 'rename', 'reRole', 'makeOwner', 'suspend', 'delete'] as const).flatMap((action): Row[] => [
    [action, 'a user of another organization', [404, 404, 404, 404]],
    [action, 'an unknown id', [404, 404, 404, 404]],
  ]),
]

const CASES = TABLE.flatMap(([action, target, expected]) =>
  CALLERS.map((caller, index) => {
    const status = expected[index] as number
    const may = status < 300 ? 'can' : 'cannot'
    const name = `a ${caller.role} ${may} ${ACTIONS[action].verb} ${target}: ${status}`
    return [name, { caller, action, target, status }] as const
  }),
)

let app: FastifyInstance

beforeEach(async () => {
  ;({ app } = await createMockApp({ users: 5 }))
})

afterEach(async () => {
  await app.close()
})

async function resolveTarget(target: TargetKind, caller: Caller): Promise<string> {
  switch (target) {
    case 'themselves':
      return namedUser(caller.token).id
    case 'another member':
      return ((await addDisposableUsers(app, 1))[0] as { id: string }).id
    case 'an owner':
      return namedUser('owner2-token').id
    case 'a user of another organization':
      // The outsider's id, as a client would learn it: from its own /me.
      return (await injectApi<UserEnvelope>(app, { url: '/api/users/me', token: 'outsider-token' })).body.data.id
    case 'an unknown id':
      return 'usr_zzzzzzzzzzzzzzzzzzzz'
  }
}

describe('CONTRACT §3: who may do what, on /api/users/{id}', () => {
  test.each(CASES)('%s', async (_name, { caller, action, target, status }) => {
    const id = await resolveTarget(target, caller)
    const before = await mockStateOf(app)
    const response = await injectApi<Problem>(app, ACTIONS[action].request(id, caller))
    expect(response.status, response.text).toBe(status)
    if (status >= 400) {
      expect(response.body.code).toBe(status === 404 ? 'USER_NOT_FOUND' : 'FORBIDDEN')
      expect(await mockStateOf(app)).toEqual(before)
    } else {
      if (action === 'read') expect((response.body as unknown as UserEnvelope).data.id).toBe(id)
      await ACTIONS[action].expectEffect(app, id)
    }
  })
})

describe('CONTRACT §3: who may do what, on /api/users and /api/users/me', () => {
  test.each(CALLERS.map((caller) => [caller.role, caller] as const))(
    'a %s can read itself at /api/users/me: 200',
    async (_role, caller) => {
      const me = await injectApi<UserEnvelope>(app, { url: '/api/users/me', token: caller.token })
      expect(me.status).toBe(200)
      expect(me.body.data).toMatchObject({ id: namedUser(caller.token).id, role: caller.role })
    },
  )

  test.each([
    ['CLIENT_OWNER', 'can', 200, 'owner-token'],
    ['CLIENT_ADMIN', 'can', 200, 'admin-token'],
    ['CLIENT_VIEWER', 'can', 200, 'viewer-token'],
    ['BOT_USER', 'cannot', 403, 'bot-token'],
  ] as const)('a %s %s list its organization: %i', async (_role, _may, status, token) => {
    const list = await injectApi<UserList & Problem>(app, { url: '/api/users', token })
    expect(list.status).toBe(status)
    if (status === 200) expect(list.body.data.length).toBeGreaterThan(0)
    else expect(list.body.code).toBe('FORBIDDEN')
  })
})

describe('CONTRACT §3: the rules for everyone', () => {
  test('a CLIENT_ADMIN cannot rename, re-role, suspend or delete the first owner either: 403', async () => {
    const owner = namedUser('owner-token').id
    for (const request of [
      patch(owner, CALLERS[1], { name: 'Not Allowed' }),
      patch(owner, CALLERS[1], { role: 'CLIENT_ADMIN' }),
      patch(owner, CALLERS[1], { status: 'SUSPENDED' }),
      { method: 'DELETE', url: `/api/users/${owner}`, token: 'admin-token' },
    ]) {
      expect((await injectApi(app, request)).status, JSON.stringify(request)).toBe(403)
    }
  })

  test('a CLIENT_ADMIN cannot make anyone a CLIENT_OWNER, even while renaming them: 403', async () => {
    const [member] = await addDisposableUsers(app, 1)
    const before = await mockStateOf(app)
    const response = await injectApi(app, patch(member!.id, CALLERS[1], { name: 'Promoted', role: 'CLIENT_OWNER' }))
    expect(response.status).toBe(403)
    expect(await mockStateOf(app)).toEqual(before)
  })

  test('a CLIENT_OWNER can make another member a CLIENT_OWNER, who then acts as one: 200', async () => {
    const [member] = await addDisposableUsers(app, 1)
    expect((await injectApi(app, patch(member!.id, CALLERS[0], { role: 'CLIENT_OWNER' }))).status).toBe(200)
    const me = await injectApi<UserEnvelope>(app, { url: '/api/users/me', token: member!.token })
    expect(me.body.data.role).toBe('CLIENT_OWNER')
    const renameOwner2 = await injectApi(app, {
      method: 'PATCH',
      url: `/api/users/${namedUser('owner2-token').id}`,
      token: member!.token,
      body: { name: 'Renamed' },
    })
    expect(renameOwner2.status).toBe(200)
  })

  test('a PATCH of oneself with a name and a role is 403 as a whole, and renames nothing', async () => {
    const before = await mockStateOf(app)
    const response = await injectApi(
      app,
      patch(namedUser('owner-token').id, CALLERS[0], { name: 'New Name', role: 'CLIENT_OWNER' }),
    )
    expect(response.status).toBe(403)
    expect(await mockStateOf(app)).toEqual(before)
  })
})
