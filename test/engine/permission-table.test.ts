import type { FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { createMockApp } from '../../src/server/start-mock.js'
import { addDisposableUsers } from '../support/add-disposable-users.js'
import type { UserEnvelope } from '../support/api-exchange.js'
import { injectApi } from '../support/inject-api.js'
import { namedUser } from '../support/named-users.js'

// CONTRACT §3, who may do what: the contract suite holds this mock to the whole table, role by role
// (contract-tests/permissions-to-read, permissions-to-change, tenant-isolation). Here, what it does not
// send: a user who acts with the role they were just given.

let app: FastifyInstance

beforeEach(async () => {
  ;({ app } = await createMockApp({ users: 5 }))
})

afterEach(async () => {
  await app.close()
})

describe('CONTRACT §2: the token alone tells the role, as it is now', () => {
  test('a CLIENT_OWNER can make another member a CLIENT_OWNER, who then acts as one: 200', async () => {
    const [member] = await addDisposableUsers(app, 1)
    const promote = await injectApi(app, {
      method: 'PATCH',
      url: `/api/users/${member!.id}`,
      token: 'owner-token',
      body: { role: 'CLIENT_OWNER' },
    })
    expect(promote.status).toBe(200)
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
})
