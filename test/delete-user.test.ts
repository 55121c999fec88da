import type { FastifyInstance } from 'fastify'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { createMockApp } from '../src/server/start-mock.js'
import type { Problem, UserList } from './support/api-exchange.js'
import { injectApi } from './support/inject-api.js'
import { namedUser } from './support/named-users.js'

// CONTRACT §4, DELETE /api/users/{id}.

let app: FastifyInstance

beforeEach(async () => {
  ;({ app } = await createMockApp({ users: 5 }))
})

afterEach(async () => {
  await app.close()
})

const VIEWER = namedUser('viewer-token')

function deleteUser(id: string, token = 'owner-token') {
  return injectApi<Problem>(app, { method: 'DELETE', url: `/api/users/${id}`, token })
}

test('a delete answers 204 with an empty body', async () => {
  const response = await deleteUser(VIEWER.id)
  expect(response.status).toBe(204)
  expect(response.text).toBe('')
  expect(response.headers['content-length'] ?? '0').toBe('0')
})

test('after a delete, GET, PATCH and DELETE of the id answer 404 USER_NOT_FOUND', async () => {
  await deleteUser(VIEWER.id)
  const read = await injectApi<Problem>(app, { url: `/api/users/${VIEWER.id}`, token: 'owner-token' })
  expect(read.status).toBe(404)
  expect(read.body.code).toBe('USER_NOT_FOUND')
  const rename = await injectApi<Problem>(app, {
    method: 'PATCH',
    url: `/api/users/${VIEWER.id}`,
    token: 'owner-token',
    body: { name: 'Ghost' },
  })
  expect(rename.status).toBe(404)
  const again = await deleteUser(VIEWER.id)
  expect(again.status).toBe(404)
  expect(again.body.code).toBe('USER_NOT_FOUND')
})

test('after a delete, the user is gone from the list and the total is one less', async () => {
  const before = await injectApi<UserList>(app, { url: '/api/users?limit=100', token: 'owner-token' })
  expect(before.body.data.map((user) => user.id)).toContain(VIEWER.id)
  await deleteUser(VIEWER.id)
  const after = await injectApi<UserList>(app, { url: '/api/users?limit=100', token: 'owner-token' })
  expect(after.body.meta.total).toBe(before.body.meta.total - 1)
  expect(after.body.data.map((user) => user.id)).not.toContain(VIEWER.id)
  expect(after.body.data.map((user) => user.id)).toEqual(
    before.body.data.map((user) => user.id).filter((id) => id !== VIEWER.id),
  )
})

test("after a delete, the deleted user's token answers 401", async () => {
  expect((await injectApi(app, { url: '/api/users/me', token: 'viewer-token' })).status).toBe(200)
  await deleteUser(VIEWER.id)
  const refused = await injectApi<Problem>(app, { url: '/api/users/me', token: 'viewer-token' })
  expect(refused.status).toBe(401)
  expect(refused.body.code).toBe('UNAUTHENTICATED')
})

test('an admin deletes a non-owner: 204, and the owner sees the user gone', async () => {
  const bot = namedUser('bot-token')
  expect((await deleteUser(bot.id, 'admin-token')).status).toBe(204)
  expect((await injectApi(app, { url: `/api/users/${bot.id}`, token: 'owner-token' })).status).toBe(404)
  expect((await injectApi(app, { url: '/api/users/me', token: 'bot-token' })).status).toBe(401)
})

test('a delete touches nobody else: the other users are as they were', async () => {
  const before = await injectApi<UserList>(app, { url: '/api/users?limit=100', token: 'owner-token' })
  await deleteUser(VIEWER.id)
  const after = await injectApi<UserList>(app, { url: '/api/users?limit=100', token: 'owner-token' })
  expect(after.body.data).toEqual(before.body.data.filter((user) => user.id !== VIEWER.id))
})
