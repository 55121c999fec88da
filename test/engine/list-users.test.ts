import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import type { User } from '../../src/domain/user.js'
import { createMockApp } from '../../src/server/start-mock.js'
import type { UserList } from '../support/api-exchange.js'
import { injectApi } from '../support/inject-api.js'
import { namedUser } from '../support/named-users.js'

// CONTRACT §4, GET /api/users: what the contract suite does not send (it lists as the owner only, and its
// search terms are ASCII). Paging, the filters, the order and the 400s are the suite's
// (contract-tests/list-users, filters-answer-exactly, search-follows-changes), which runs against this mock.

let app: FastifyInstance

beforeAll(async () => {
  ;({ app } = await createMockApp({ users: 30 }))
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

describe('what is listed', () => {
  test('admins and viewers list the same organization as the owner', async () => {
    const everyone = ids((await list('?limit=100')).body.data)
    expect(ids((await list('?limit=100', 'admin-token')).body.data)).toEqual(everyone)
    expect(ids((await list('?limit=100', 'viewer-token')).body.data)).toEqual(everyone)
  })
})

describe('the search', () => {
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
})
