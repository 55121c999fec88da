import { DISPOSABLE_USERS_NEEDED } from '../../src/target/disposable-slots.js'
import { DEFAULT_DISPOSABLE_USERS } from '../../src/mock-instance/create-target.js'
import { createServer } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { startMock, type RunningMock, type StartMockOptions } from '../../src/server/start-mock.js'
import type { UserEnvelope, UserList } from '../support/api-exchange.js'
import { fetchApi } from '../support/fetch-api.js'
import { namedUser } from '../support/named-users.js'
import { ACTOR_ROLES } from '../../src/target/target-format.js'

// The programmatic API: startMock() for a test runner. Real sockets, real fetch.

const mocks: RunningMock[] = []

async function freshMock(options: StartMockOptions = {}): Promise<RunningMock> {
  const mock = await startMock({ users: 5, ...options })
  mocks.push(mock)
  return mock
}

afterEach(async () => {
  await Promise.all(mocks.splice(0).map((mock) => mock.close()))
})

function portOf(url: string): number {
  return Number(new URL(url).port)
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}

describe('startMock()', () => {
  test('listens on 127.0.0.1 on a free port and says where', async () => {
    const mock = await freshMock()
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(portOf(mock.url)).toBeGreaterThan(0)
    expect(await canListen(portOf(mock.url))).toBe(false)
  })

  test('lists the tokens, as GET /__mock/tokens does', async () => {
    const mock = await freshMock()
    expect(mock.tokens.map((entry) => entry.token)).toEqual(
      expect.arrayContaining(['owner-token', 'admin-token', 'viewer-token', 'bot-token', 'outsider-token']),
    )
    const listed = await fetchApi<{ data: unknown[] }>(mock.url, { url: '/__mock/tokens' })
    expect(listed.body.data).toEqual(mock.tokens)
  })

  test("gives a target whose actors work over fetch: each answers /me with its role, in the owner's organization", async () => {
    const mock = await freshMock()
    expect(mock.target.baseUrl).toBe(mock.url)
    const owner = await fetchApi<UserEnvelope>(mock.url, {
      url: '/api/users/me',
      token: mock.target.actors.owner!.token,
    })
    expect(owner.status).toBe(200)
    for (const [actor, role] of Object.entries(ACTOR_ROLES) as Array<[keyof typeof ACTOR_ROLES, string]>) {
      const me = await fetchApi<UserEnvelope>(mock.url, {
        url: '/api/users/me',
        token: mock.target.actors[actor]!.token,
      })
      expect(me.status).toBe(200)
      expect(me.body.data).toMatchObject({ role, status: 'ACTIVE', organizationId: owner.body.data.organizationId })
    }
    const outsider = await fetchApi<UserEnvelope>(mock.url, {
      url: '/api/users/me',
      token: mock.target.actors.outsider!.token,
    })
    expect(outsider.body.data.organizationId).not.toBe(owner.body.data.organizationId)
  })

  test('gives the target enough disposable ACTIVE CLIENT_VIEWERs for the suite by default, `disposable` more or fewer', async () => {
    const mock = await freshMock()
    expect(mock.target.disposable).toHaveLength(DEFAULT_DISPOSABLE_USERS)
    expect(mock.target.disposable.length).toBeGreaterThan(DISPOSABLE_USERS_NEEDED)
    for (const user of mock.target.disposable) {
      const me = await fetchApi<UserEnvelope>(mock.url, { url: '/api/users/me', token: user.token })
      expect(me.body.data).toMatchObject({ id: user.id, role: 'CLIENT_VIEWER', status: 'ACTIVE' })
    }
    expect((await freshMock({ disposable: 2 })).target.disposable).toHaveLength(2)
  })

  test("reset() returns to the start, the target's disposable users included", async () => {
    const mock = await freshMock()
    const [disposable] = mock.target.disposable
    const viewer = namedUser('viewer-token')
    const headers = { token: 'owner-token' }
    expect(
      (await fetchApi(mock.url, { method: 'DELETE', url: `/api/users/${disposable!.id}`, ...headers })).status,
    ).toBe(204)
    await fetchApi(mock.url, { method: 'PATCH', url: `/api/users/${viewer.id}`, body: { name: 'Renamed' }, ...headers })
    expect((await fetchApi(mock.url, { url: '/api/users/me', token: disposable!.token })).status).toBe(401)
    await mock.reset()
    const me = await fetchApi<UserEnvelope>(mock.url, { url: '/api/users/me', token: disposable!.token })
    expect(me.status).toBe(200)
    expect(me.body.data.id).toBe(disposable!.id)
    const restored = await fetchApi<UserEnvelope>(mock.url, { url: `/api/users/${viewer.id}`, ...headers })
    expect(restored.body.data.name).toBe(viewer.name)
  })

  test('close() stops answering and frees the port', async () => {
    const mock = await startMock({ users: 5 })
    const port = portOf(mock.url)
    expect((await fetch(`${mock.url}/__mock/tokens`)).status).toBe(200)
    await mock.close()
    await expect(fetch(`${mock.url}/__mock/tokens`)).rejects.toThrow()
    expect(await canListen(port)).toBe(true)
  })

  test('two mocks at once are isolated: different ports, separate states', async () => {
    const [first, second] = await Promise.all([freshMock(), freshMock()])
    expect(first!.url).not.toBe(second!.url)
    const viewer = namedUser('viewer-token')
    await fetchApi(first!.url, {
      method: 'PATCH',
      url: `/api/users/${viewer.id}`,
      token: 'owner-token',
      body: { name: 'Only In First' },
    })
    await fetchApi(second!.url, {
      method: 'DELETE',
      url: `/api/users/${namedUser('bot-token').id}`,
      token: 'owner-token',
    })
    const inFirst = await fetchApi<UserEnvelope>(first!.url, { url: `/api/users/${viewer.id}`, token: 'owner-token' })
    const inSecond = await fetchApi<UserEnvelope>(second!.url, { url: `/api/users/${viewer.id}`, token: 'owner-token' })
    expect(inFirst.body.data.name).toBe('Only In First')
    expect(inSecond.body.data.name).toBe(viewer.name)
    expect((await fetchApi(first!.url, { url: '/api/users/me', token: 'bot-token' })).status).toBe(200)
    expect((await fetchApi(second!.url, { url: '/api/users/me', token: 'bot-token' })).status).toBe(401)
    // Each target's disposable users live in its own mock only.
    expect(
      (await fetchApi(second!.url, { url: '/api/users/me', token: first!.target.disposable[0]!.token })).status,
    ).toBe(401)
  })
})

describe('a full-stack smoke of every operation over a real socket (each answer checked against the document)', () => {
  test('list, me, get, patch, delete, and the 405s of /me', async () => {
    const mock = await freshMock()
    const owner = { token: 'owner-token' }
    const [user] = mock.target.disposable

    const list = await fetchApi<UserList>(mock.url, { url: '/api/users?limit=5&role=CLIENT_VIEWER&search=a', ...owner })
    expect(list.status).toBe(200)
    expect(list.headers['content-type']).toBe('application/json; charset=utf-8')

    const me = await fetchApi<UserEnvelope>(mock.url, { url: '/api/users/me', ...owner })
    expect(me.status).toBe(200)

    const read = await fetchApi<UserEnvelope>(mock.url, { url: `/api/users/${user!.id}`, ...owner })
    expect(read.body.data.id).toBe(user!.id)

    const patched = await fetchApi<UserEnvelope>(mock.url, {
      method: 'PATCH',
      url: `/api/users/${user!.id}`,
      body: { name: ' Smoke Test ', role: 'CLIENT_ADMIN', status: 'SUSPENDED' },
      ...owner,
    })
    expect(patched.status).toBe(200)
    expect(patched.body.data).toMatchObject({ name: 'Smoke Test', role: 'CLIENT_ADMIN', status: 'SUSPENDED' })

    const deleted = await fetchApi(mock.url, { method: 'DELETE', url: `/api/users/${user!.id}`, ...owner })
    expect(deleted.status).toBe(204)
    expect(deleted.text).toBe('')

    for (const method of ['PATCH', 'DELETE']) {
      const refused = await fetchApi(mock.url, { method, url: '/api/users/me', ...owner })
      expect(refused.status).toBe(405)
      expect(refused.headers['allow']).toBe('GET')
    }
  })

  test('the docs and the document are served', async () => {
    const mock = await freshMock()
    const document = await fetchApi<{ openapi: string; servers: Array<{ url: string }> }>(mock.url, {
      url: '/openapi.json',
    })
    expect(document.status).toBe(200)
    expect(document.body.openapi).toMatch(/^3\.1\./)
    expect(document.body.servers[0]!.url).toBe(mock.url)
    expect((await fetch(`${mock.url}/docs`, { redirect: 'follow' })).status).toBe(200)
  })
})
