import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import type { User } from '../src/domain/user.js'
import { createMockApp } from '../src/server/start-mock.js'
import type { Problem, UserEnvelope, UserList } from './support/api-exchange.js'
import { injectApi } from './support/inject-api.js'
import { namedUser } from './support/named-users.js'

// CONTRACT §4, GET /api/users. Nothing here writes: one app for the file, 30 generated users per organization.

let app: FastifyInstance
/** Every user of the owner's organization, in list order (one page of 100). */
let everyone: User[]

beforeAll(async () => {
  ;({ app } = await createMockApp({ users: 30 }))
  const all = await list('?limit=100')
  expect(all.body.meta.total).toBeLessThanOrEqual(100)
  everyone = all.body.data
})

afterAll(async () => {
  await app.close()
})

function list(query: string, token = 'owner-token') {
  return injectApi<UserList>(app, { url: `/api/users${query}`, token })
}

function ids(users: User[]): string[] {
  return users.map((user) => user.id)
}

describe('paging', () => {
  test('the defaults are page 1 and limit 20', async () => {
    const response = await list('')
    expect(response.status).toBe(200)
    expect(response.body.meta).toEqual({
      page: 1,
      limit: 20,
      total: everyone.length,
      totalPages: Math.ceil(everyone.length / 20),
    })
    expect(ids(response.body.data)).toEqual(ids(everyone.slice(0, 20)))
  })

  test.each([1, 3, 7, 20, 37, 100])(
    'limit=%i: total counts every match, totalPages = ceil(total / limit)',
    async (limit) => {
      const response = await list(`?limit=${limit}`)
      expect(response.body.meta).toEqual({
        page: 1,
        limit,
        total: everyone.length,
        totalPages: Math.ceil(everyone.length / limit),
      })
      expect(response.body.data).toHaveLength(Math.min(limit, everyone.length))
    },
  )

  test('no match: total 0, totalPages 0, data []', async () => {
    const response = await list('?search=no-such-user-anywhere')
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ data: [], meta: { page: 1, limit: 20, total: 0, totalPages: 0 } })
  })

  test('pages of 7 are disjoint and together list everyone once, in order', async () => {
    const first = await list('?limit=7')
    const totalPages = first.body.meta.totalPages
    expect(totalPages).toBe(Math.ceil(everyone.length / 7))
    const walked: string[] = []
    for (let page = 1; page <= totalPages; page++) {
      const response = await list(`?limit=7&page=${page}`)
      expect(response.body.meta).toEqual({ page, limit: 7, total: everyone.length, totalPages })
      walked.push(...ids(response.body.data))
    }
    expect(new Set(walked).size).toBe(walked.length)
    expect(walked).toEqual(ids(everyone))
  })

  test('a page past the end: 200 with data [] and the true meta', async () => {
    const response = await list('?limit=7&page=999')
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      data: [],
      meta: { page: 999, limit: 7, total: everyone.length, totalPages: Math.ceil(everyone.length / 7) },
    })
  })

  test('the page just past the last one is empty, the last one is not', async () => {
    const totalPages = Math.ceil(everyone.length / 7)
    expect((await list(`?limit=7&page=${totalPages}`)).body.data.length).toBeGreaterThan(0)
    expect((await list(`?limit=7&page=${totalPages + 1}`)).body.data).toEqual([])
  })
})

describe('values out of range or of the wrong type: 400, never clamped', () => {
  test.each([
    ['page=0', '/page'],
    ['page=-1', '/page'],
    ['page=1.5', '/page'],
    ['page=one', '/page'],
    ['limit=0', '/limit'],
    ['limit=101', '/limit'],
    ['limit=abc', '/limit'],
    ['limit=1.5', '/limit'],
    ['limit=', '/limit'],
    ['limit=1&limit=2', '/limit'],
    ['page=0x10', '/page'],
    ['limit=1e1', '/limit'],
    ['limit=%2B5', '/limit'],
    ['limit=%205', '/limit'],
    ['role=client_viewer', '/role'],
    ['role=OWNER', '/role'],
    [`search=${'a'.repeat(101)}`, '/search'],
  ])('%s: 400 naming the query parameter %s', async (query, path) => {
    const response = await injectApi<Problem>(app, { url: `/api/users?${query}`, token: 'owner-token' })
    expect(response.status).toBe(400)
    expect(response.body.code).toBe('VALIDATION_FAILED')
    expect(response.body.errors).toContainEqual(expect.objectContaining({ in: 'query', path }))
  })

  test('the bounds themselves are accepted: limit=1, limit=100, search of 100 characters', async () => {
    expect((await list('?limit=1')).status).toBe(200)
    expect((await list('?limit=100')).status).toBe(200)
    expect((await list(`?search=${'a'.repeat(100)}`)).status).toBe(200)
  })

  test("a bot's invalid query is 400, not 403: validation comes before permission", async () => {
    const invalid = await injectApi<Problem>(app, { url: '/api/users?limit=0', token: 'bot-token' })
    expect(invalid.status).toBe(400)
    const valid = await injectApi<Problem>(app, { url: '/api/users?limit=5', token: 'bot-token' })
    expect(valid.status).toBe(403)
  })

  test('unknown query parameters are ignored', async () => {
    const response = await list('?limit=5&sort=name&foo=bar')
    expect(response.status).toBe(200)
    expect(response.body.meta).toEqual({
      page: 1,
      limit: 5,
      total: everyone.length,
      totalPages: Math.ceil(everyone.length / 5),
    })
    expect(ids(response.body.data)).toEqual(ids(everyone.slice(0, 5)))
  })
})

describe('filters', () => {
  test.each(['CLIENT_OWNER', 'CLIENT_ADMIN', 'CLIENT_VIEWER', 'BOT_USER'])(
    'role=%s lists exactly the users with that role',
    async (role) => {
      const response = await list(`?role=${role}&limit=100`)
      const expected = everyone.filter((user) => user.role === role)
      expect(expected.length).toBeGreaterThan(0)
      expect(ids(response.body.data)).toEqual(ids(expected))
      expect(response.body.meta.total).toBe(expected.length)
    },
  )

  test.each(['OLIVIA', 'olivia', 'r Vie', 'VICTOR.VIEWER@', 'Acme.Example', 'a', 'bot'])(
    'search=%s: a case-insensitive substring of name or email',
    async (search) => {
      const response = await list(`?search=${encodeURIComponent(search)}&limit=100`)
      const needle = search.toLowerCase()
      const expected = everyone.filter(
        (user) => user.name.toLowerCase().includes(needle) || user.email.toLowerCase().includes(needle),
      )
      expect(expected.length).toBeGreaterThan(0)
      expect(ids(response.body.data)).toEqual(ids(expected))
      expect(response.body.meta.total).toBe(expected.length)
    },
  )

  test('search matches the email alone: VICTOR.VIEWER@ is in no name', async () => {
    const response = await list('?search=VICTOR.VIEWER%40')
    expect(ids(response.body.data)).toEqual([namedUser('viewer-token').id])
  })

  test('an empty search is no filter', async () => {
    const response = await list('?search=&limit=100')
    expect(ids(response.body.data)).toEqual(ids(everyone))
  })

  test('role and search combine', async () => {
    const response = await list('?role=CLIENT_OWNER&search=owner&limit=100')
    const expected = everyone.filter(
      (user) =>
        user.role === 'CLIENT_OWNER' &&
        (user.name.toLowerCase().includes('owner') || user.email.toLowerCase().includes('owner')),
    )
    expect(ids(response.body.data)).toEqual(ids(expected))
    expect(ids(response.body.data)).toContain(namedUser('owner2-token').id)
  })
})

describe('what is listed', () => {
  test('the order is createdAt ascending, then id ascending', async () => {
    const sorted = [...everyone].sort((a, b) =>
      a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1,
    )
    expect(ids(everyone)).toEqual(ids(sorted))
  })

  test("only the caller's organization, never another one's", async () => {
    const organizationId = namedUser('owner-token').organizationId
    expect(everyone.every((user) => user.organizationId === organizationId)).toBe(true)
    const outsiders = await list('?limit=100', 'outsider-token')
    expect(outsiders.body.data.length).toBeGreaterThan(0)
    expect(
      outsiders.body.data.every((user) => user.organizationId === namedUser('outsider-token').organizationId),
    ).toBe(true)
    expect(ids(outsiders.body.data).some((id) => ids(everyone).includes(id))).toBe(false)
  })

  test('users of every status are listed: ACTIVE, INVITED and SUSPENDED', async () => {
    expect(new Set(everyone.map((user) => user.status))).toEqual(new Set(['ACTIVE', 'INVITED', 'SUSPENDED']))
    expect(ids(everyone)).toEqual(
      expect.arrayContaining([namedUser('suspended-token').id, namedUser('invited-token').id]),
    )
  })

  test('admins and viewers list the same organization as the owner', async () => {
    expect(ids((await list('?limit=100', 'admin-token')).body.data)).toEqual(ids(everyone))
    expect(ids((await list('?limit=100', 'viewer-token')).body.data)).toEqual(ids(everyone))
  })
})

describe('the list follows changes', () => {
  let changing: FastifyInstance

  beforeEach(async () => {
    ;({ app: changing } = await createMockApp({ users: 5 }))
  })

  afterEach(async () => {
    await changing.close()
  })

  async function search(query: string): Promise<string[]> {
    const response = await injectApi<UserList>(changing, {
      url: `/api/users?limit=100&search=${encodeURIComponent(query)}`,
      token: 'owner-token',
    })
    return ids(response.body.data)
  }

  test('after a rename, search finds the new name and no longer the old one; the order stays', async () => {
    const viewer = namedUser('viewer-token')
    const before = await injectApi<UserList>(changing, { url: '/api/users?limit=100', token: 'owner-token' })
    await injectApi<UserEnvelope>(changing, {
      method: 'PATCH',
      url: `/api/users/${viewer.id}`,
      token: 'owner-token',
      body: { name: 'Zelda Quux' },
    })
    expect(await search('zelda qu')).toEqual([viewer.id])
    expect(await search('Victor Viewer')).toEqual([])
    // The email did not change: the old name's email still matches.
    expect(await search('victor.viewer')).toEqual([viewer.id])
    const after = await injectApi<UserList>(changing, { url: '/api/users?limit=100', token: 'owner-token' })
    expect(ids(after.body.data)).toEqual(ids(before.body.data))
  })

  test('search lower-cases both sides beyond ASCII: ZOË finds Zoë, ÄRGER finds Ärger', async () => {
    const viewer = namedUser('viewer-token')
    await injectApi(changing, {
      method: 'PATCH',
      url: `/api/users/${viewer.id}`,
      token: 'owner-token',
      body: { name: 'Zoë Ärger' },
    })
    expect(await search('ZOË')).toEqual([viewer.id])
    expect(await search('ärger')).toEqual([viewer.id])
    expect(await search('ÄRGER')).toEqual([viewer.id])
  })

  test('after a role change, the role filter follows', async () => {
    const viewer = namedUser('viewer-token')
    await injectApi(changing, {
      method: 'PATCH',
      url: `/api/users/${viewer.id}`,
      token: 'owner-token',
      body: { role: 'BOT_USER' },
    })
    const bots = await injectApi<UserList>(changing, {
      url: '/api/users?limit=100&role=BOT_USER',
      token: 'owner-token',
    })
    expect(ids(bots.body.data)).toContain(viewer.id)
    const viewers = await injectApi<UserList>(changing, {
      url: '/api/users?limit=100&role=CLIENT_VIEWER',
      token: 'owner-token',
    })
    expect(ids(viewers.body.data)).not.toContain(viewer.id)
  })
})
