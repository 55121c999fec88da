import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createMockHandlers } from '../../src/msw/index.js'
import type { Problem, UserEnvelope, UserList } from '../support/api-exchange.js'
import { namedUser } from '../support/named-users.js'

// The kit's MSW handlers as a frontend's unit tests use them: msw/node's setupServer, the global fetch,
// no server listening anywhere. Unhandled requests are errors, so a request the handlers miss fails.

const OWNER = namedUser('owner-token')
const ADMIN = namedUser('admin-token')
const BOT = namedUser('bot-token')

function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` }
}

/** With `onUnhandledFrame: 'error'`, msw fails a request no handler takes, rather than sending it. */
async function expectUnhandled(url: string): Promise<void> {
  await expect(fetch(url, { headers: bearer('owner-token') })).rejects.toMatchObject({
    cause: { message: expect.stringMatching(/\[MSW\].*"error" strategy/) },
  })
}

function renameRequest(name: string, token = 'owner-token'): RequestInit {
  return {
    method: 'PATCH',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  }
}

describe('with baseUrl http://localhost:4010', () => {
  const API = 'http://localhost:4010'
  const { handlers, mock } = createMockHandlers({ baseUrl: API })
  const server = setupServer(...handlers)

  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
  afterEach(async () => (await mock).reset())
  afterAll(() => server.close())

  test("the owner lists its organization's users: 200, meta.total counts them all", async () => {
    const response = await fetch(`${API}/api/users?limit=5`, { headers: bearer('owner-token') })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    const list = (await response.json()) as UserList
    const members = (await mock).exportState().users.filter((user) => user.organizationId === OWNER.organizationId)
    expect(list.meta.total).toBe(members.length)
    expect(list.meta.total).toBeGreaterThan(5)
    expect(list.data).toHaveLength(5)
    expect(list.data.every((user) => user.organizationId === OWNER.organizationId)).toBe(true)
  })

  test('a rename is 200 and a later GET shows the new name', async () => {
    const renamed = await fetch(`${API}/api/users/${ADMIN.id}`, renameRequest('Ada Renamed'))
    expect(renamed.status).toBe(200)
    expect(((await renamed.json()) as UserEnvelope).data.name).toBe('Ada Renamed')

    const read = await fetch(`${API}/api/users/${ADMIN.id}`, { headers: bearer('owner-token') })
    expect(read.status).toBe(200)
    expect(((await read.json()) as UserEnvelope).data.name).toBe('Ada Renamed')
  })

  test('mock.reset() brings the old name back', async () => {
    expect((await fetch(`${API}/api/users/${ADMIN.id}`, renameRequest('Temporary Name'))).status).toBe(200)

    ;(await mock).reset()

    const read = await fetch(`${API}/api/users/${ADMIN.id}`, { headers: bearer('owner-token') })
    expect(((await read.json()) as UserEnvelope).data.name).toBe(ADMIN.name)
    expect(ADMIN.name).not.toBe('Temporary Name')
  })

  test('a delete is 204 with no body, then the user is 404 USER_NOT_FOUND', async () => {
    const deleted = await fetch(`${API}/api/users/${BOT.id}`, { method: 'DELETE', headers: bearer('owner-token') })
    expect(deleted.status).toBe(204)
    expect(await deleted.text()).toBe('')

    const read = await fetch(`${API}/api/users/${BOT.id}`, { headers: bearer('owner-token') })
    expect(read.status).toBe(404)
    expect(((await read.json()) as Problem).code).toBe('USER_NOT_FOUND')
  })

  test('no token: 401 UNAUTHENTICATED as problem+json with WWW-Authenticate: Bearer', async () => {
    const response = await fetch(`${API}/api/users/me`)
    expect(response.status).toBe(401)
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    expect(response.headers.get('www-authenticate')).toBe('Bearer')
    const problem = (await response.json()) as Problem
    expect(problem).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' })
    expect(problem.detail).toMatch(/\S/)
  })

  test('a viewer renaming another user: 403 FORBIDDEN, and the name stays', async () => {
    const response = await fetch(`${API}/api/users/${ADMIN.id}`, renameRequest('Not Allowed', 'viewer-token'))
    expect(response.status).toBe(403)
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    expect(((await response.json()) as Problem).code).toBe('FORBIDDEN')
    expect((await mock).exportState().users.find((user) => user.id === ADMIN.id)?.name).toBe(ADMIN.name)
  })

  test('a bad query (?limit=0): 400 VALIDATION_FAILED naming /limit', async () => {
    const response = await fetch(`${API}/api/users?limit=0`, { headers: bearer('owner-token') })
    expect(response.status).toBe(400)
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    const problem = (await response.json()) as Problem
    expect(problem.code).toBe('VALIDATION_FAILED')
    expect(problem.errors).toContainEqual(expect.objectContaining({ in: 'query', path: '/limit' }))
  })

  test('another origin is not the mock: the request is unhandled, so it fails', async () => {
    await expectUnhandled('http://localhost:4011/api/users/me')
  })
})

describe('with no baseUrl: /api on any origin', () => {
  const { handlers, mock } = createMockHandlers()
  const server = setupServer(...handlers)

  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
  afterEach(async () => (await mock).reset())
  afterAll(() => server.close())

  test.each(['http://localhost:4010', 'https://api.example.test', 'http://127.0.0.1:3000'])(
    '%s/api/users/me is the mock: 200 with the owner',
    async (origin) => {
      const response = await fetch(`${origin}/api/users/me`, { headers: bearer('owner-token') })
      expect(response.status).toBe(200)
      expect(((await response.json()) as UserEnvelope).data.id).toBe(OWNER.id)
    },
  )

  test('a rename on one origin is seen on another: one mock behind every origin', async () => {
    const renamed = await fetch(`https://one.example.test/api/users/${ADMIN.id}`, renameRequest('Shared Name'))
    expect(renamed.status).toBe(200)
    const read = await fetch(`http://two.example.test/api/users/${ADMIN.id}`, { headers: bearer('owner-token') })
    expect(((await read.json()) as UserEnvelope).data.name).toBe('Shared Name')
  })

  test.each(['https://maps.example.test/maps/api/geocode', 'https://other.example.test/v2/api/users/me'])(
    "another service's path that merely contains /api/ (%s) is left alone: unhandled, so it fails",
    async (url) => {
      await expectUnhandled(url)
    },
  )
})

describe('with baseUrl http://localhost:4010/backend/ (a path prefix)', () => {
  const { handlers } = createMockHandlers({ baseUrl: 'http://localhost:4010/backend/' })
  const server = setupServer(...handlers)

  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
  afterAll(() => server.close())

  test('/backend/api/users/me is the API under the prefix: 200 with the owner', async () => {
    const response = await fetch('http://localhost:4010/backend/api/users/me', { headers: bearer('owner-token') })
    expect(response.status).toBe(200)
    expect(((await response.json()) as UserEnvelope).data.id).toBe(OWNER.id)
  })

  test.each(['http://localhost:4010/api/users/me', 'http://localhost:4010/backendx/api/users/me'])(
    '%s is outside the prefix: unhandled, so it fails',
    async (url) => {
      await expectUnhandled(url)
    },
  )
})

describe('events under MSW (docs/contract.md §6)', () => {
  const events: string[] = []
  const { handlers } = createMockHandlers({
    baseUrl: 'http://localhost:4011',
    webhooks: { onEvent: (event) => events.push(`${event.type} ${event.payload.data.user.name}`) },
  })
  const server = setupServer(...handlers)

  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
  afterAll(() => server.close())

  test('a unit test sees the events of its changes in a callback, with no receiver anywhere', async () => {
    const response = await fetch(`http://localhost:4011/api/users/${ADMIN.id}`, renameRequest('Evented'))
    expect(response.status).toBe(200)
    await expect.poll(() => events).toEqual(['user.updated Evented'])
  })
})
