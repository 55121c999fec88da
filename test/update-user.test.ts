import type { FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { createMockApp } from '../src/server/start-mock.js'
import type { ApiRequest, Problem, UserEnvelope } from './support/api-exchange.js'
import { injectApi } from './support/inject-api.js'
import { mockStateOf } from './support/mock-state-of.js'
import { namedUser } from './support/named-users.js'

// CONTRACT §4, PATCH /api/users/{id}.

let app: FastifyInstance

beforeEach(async () => {
  ;({ app } = await createMockApp({ users: 5 }))
})

afterEach(async () => {
  vi.useRealTimers()
  await app.close()
})

const VIEWER = namedUser('viewer-token')
const INVITED = namedUser('invited-token')
const SUSPENDED = namedUser('suspended-token')

function patchUser(id: string, body: unknown, headers: Record<string, string> = {}, token = 'owner-token'): ApiRequest {
  return { method: 'PATCH', url: `/api/users/${id}`, token, body, headers }
}

async function readUser(id: string): Promise<UserEnvelope['data']> {
  return (await injectApi<UserEnvelope>(app, { url: `/api/users/${id}`, token: 'owner-token' })).body.data
}

const JSON_TYPE = { 'content-type': 'application/json' }

describe('an invalid body: 400 VALIDATION_FAILED with errors (in, path, message), and nothing changes', () => {
  test.each([
    ['no body', undefined, JSON_TYPE, ''],
    ['a body that is not JSON', '{"name": "Ada"', JSON_TYPE, ''],
    ['a JSON array', '[{"name":"Ada"}]', JSON_TYPE, ''],
    ['a JSON string', '"Ada"', JSON_TYPE, ''],
    ['null', 'null', JSON_TYPE, ''],
    ['an empty object', {}, {}, ''],
    ['an unknown key', { name: 'Ada', nickname: 'ada' }, {}, '/nickname'],
    ['a read-only field (email)', { email: 'ada@acme.example' }, {}, '/email'],
    ['a name of the wrong type', { name: 42 }, {}, '/name'],
    ['a role of the wrong type', { role: ['CLIENT_ADMIN'] }, {}, '/role'],
    ['a role that does not exist', { role: 'SUPERUSER' }, {}, '/role'],
    ['a role in lower case', { role: 'client_admin' }, {}, '/role'],
    ['a null status', { status: null }, {}, '/status'],
    ['the status INVITED (never set, only created in)', { status: 'INVITED' }, {}, '/status'],
    ['an empty name', { name: '' }, {}, '/name'],
    ['a name of only spaces', { name: '   ' }, {}, '/name'],
    ['a name of only white space of several kinds', { name: ' \t\n\u00a0\u3000' }, {}, '/name'],
    ['a name of 101 characters', { name: 'a'.repeat(101) }, {}, '/name'],
    ['a name of 101 code points (an emoji counts one)', { name: '😀'.repeat(101) }, {}, '/name'],
  ])('%s: 400', async (_case, body, headers: Record<string, string>, path) => {
    const before = await mockStateOf(app)
    const response = await injectApi<Problem>(app, patchUser(VIEWER.id, body, headers))
    expect(response.status, response.text).toBe(400)
    expect(response.body.code).toBe('VALIDATION_FAILED')
    expect(response.body.errors?.length).toBeGreaterThan(0)
    for (const issue of response.body.errors ?? []) {
      expect(issue).toEqual({ in: 'body', path: expect.any(String), message: expect.stringMatching(/\S/) })
    }
    expect(response.body.errors?.map((issue) => issue.path)).toContain(path)
    expect(await mockStateOf(app)).toEqual(before)
  })

  test("a viewer's PATCH of another user with a bad body is 400, not 403: validation comes first", async () => {
    const response = await injectApi<Problem>(
      app,
      patchUser(namedUser('admin-token').id, { name: '' }, {}, 'viewer-token'),
    )
    expect(response.status).toBe(400)
  })

  test('a bad body for an unknown id is 400, not 404: validation comes first', async () => {
    const response = await injectApi<Problem>(app, patchUser('usr_zzzzzzzzzzzzzzzzzzzz', { nickname: 'x' }))
    expect(response.status).toBe(400)
  })
})

describe('the Content-Type: application/json or 415', () => {
  test.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['application/merge-patch+json', { 'content-type': 'application/merge-patch+json' }],
    ['application/x-www-form-urlencoded', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['no Content-Type at all', {}],
  ])('%s: 415 UNSUPPORTED_MEDIA_TYPE, and nothing changes', async (_case, headers: Record<string, string>) => {
    const before = await mockStateOf(app)
    const response = await injectApi<Problem>(app, patchUser(VIEWER.id, '{"name":"Ada"}', headers))
    expect(response.status).toBe(415)
    expect(response.body.code).toBe('UNSUPPORTED_MEDIA_TYPE')
    expect(await mockStateOf(app)).toEqual(before)
  })

  test.each(['application/json; charset=utf-8', 'application/json;charset=UTF-8', 'Application/JSON'])(
    '%s is accepted',
    async (type) => {
      const response = await injectApi<UserEnvelope>(
        app,
        patchUser(VIEWER.id, '{"name":"Ada"}', { 'content-type': type }),
      )
      expect(response.status).toBe(200)
      expect(response.body.data.name).toBe('Ada')
    },
  )

  test('the content type is checked before the body: a bad body as text/plain is 415', async () => {
    const response = await injectApi<Problem>(app, patchUser(VIEWER.id, 'not json', { 'content-type': 'text/plain' }))
    expect(response.status).toBe(415)
  })
})

describe('names', () => {
  test('a name with surrounding white space is stored trimmed', async () => {
    const response = await injectApi<UserEnvelope>(app, patchUser(VIEWER.id, { name: '  \tAda Lovelace \n' }))
    expect(response.status).toBe(200)
    expect(response.body.data.name).toBe('Ada Lovelace')
    expect((await readUser(VIEWER.id)).name).toBe('Ada Lovelace')
  })

  test('a name of 100 code points with surrounding spaces is accepted and stored trimmed', async () => {
    const name = '😀'.repeat(100)
    const response = await injectApi<UserEnvelope>(app, patchUser(VIEWER.id, { name: `   ${name}  ` }))
    expect(response.status, response.text).toBe(200)
    expect(response.body.data.name).toBe(name)
  })

  test('a name of 100 characters with inner spaces is accepted as is', async () => {
    const name = `A${' b'.repeat(49)}c`
    expect([...name]).toHaveLength(100)
    const response = await injectApi<UserEnvelope>(app, patchUser(VIEWER.id, { name }))
    expect(response.status).toBe(200)
    expect(response.body.data.name).toBe(name)
  })
})

describe('updatedAt', () => {
  test('setting every field to the value it has changes nothing, updatedAt included', async () => {
    const before = await readUser(VIEWER.id)
    const response = await injectApi<UserEnvelope>(
      app,
      patchUser(VIEWER.id, { name: VIEWER.name, role: VIEWER.role, status: VIEWER.status }),
    )
    expect(response.status).toBe(200)
    expect(response.body.data).toEqual(before)
  })

  test('a name that differs only by surrounding white space is a no-op: updatedAt stays', async () => {
    const before = await readUser(VIEWER.id)
    const response = await injectApi<UserEnvelope>(app, patchUser(VIEWER.id, { name: `  ${VIEWER.name}\t` }))
    expect(response.status).toBe(200)
    expect(response.body.data).toEqual(before)
  })

  test('a real change moves updatedAt forward, keeps createdAt, and GET shows the same user', async () => {
    const before = await readUser(VIEWER.id)
    const response = await injectApi<UserEnvelope>(app, patchUser(VIEWER.id, { name: 'Ada Lovelace' }))
    expect(Date.parse(response.body.data.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt))
    expect(response.body.data.createdAt).toBe(before.createdAt)
    expect(await readUser(VIEWER.id)).toEqual(response.body.data)
  })

  test('two real changes within one millisecond still give two strictly increasing updatedAt', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2030-06-01T12:00:00.000Z'))
    const first = await injectApi<UserEnvelope>(app, patchUser(VIEWER.id, { name: 'First' }))
    const second = await injectApi<UserEnvelope>(app, patchUser(VIEWER.id, { name: 'Second' }))
    expect(Date.now()).toBe(Date.parse('2030-06-01T12:00:00.000Z'))
    expect(Date.parse(first.body.data.updatedAt)).toBeGreaterThan(Date.parse(VIEWER.updatedAt))
    expect(Date.parse(second.body.data.updatedAt)).toBeGreaterThan(Date.parse(first.body.data.updatedAt))
  })
})

describe('the state rule: INVITED', () => {
  test.each(['ACTIVE', 'SUSPENDED'])(
    "an INVITED user's status cannot be set to %s: 409 INVALID_TRANSITION, nothing changes",
    async (status) => {
      const before = await mockStateOf(app)
      const response = await injectApi<Problem>(app, patchUser(INVITED.id, { status }))
      expect(response.status).toBe(409)
      expect(response.body.code).toBe('INVALID_TRANSITION')
      expect(await mockStateOf(app)).toEqual(before)
    },
  )

  test("a 409 is all or nothing: a rename that comes with an INVITED user's status change is not applied", async () => {
    const response = await injectApi<Problem>(app, patchUser(INVITED.id, { name: 'Ivy Renamed', status: 'ACTIVE' }))
    expect(response.status).toBe(409)
    expect((await readUser(INVITED.id)).name).toBe(INVITED.name)
  })

  test("an INVITED user's role and name can change; the status stays INVITED", async () => {
    const response = await injectApi<UserEnvelope>(
      app,
      patchUser(INVITED.id, { role: 'CLIENT_ADMIN', name: 'Ivy Admin' }),
    )
    expect(response.status).toBe(200)
    expect(response.body.data).toMatchObject({ role: 'CLIENT_ADMIN', name: 'Ivy Admin', status: 'INVITED' })
  })

  test('ACTIVE and SUSPENDED change freely into each other', async () => {
    const suspend = await injectApi<UserEnvelope>(app, patchUser(VIEWER.id, { status: 'SUSPENDED' }))
    expect(suspend.body.data.status).toBe('SUSPENDED')
    const activate = await injectApi<UserEnvelope>(app, patchUser(VIEWER.id, { status: 'ACTIVE' }))
    expect(activate.body.data.status).toBe('ACTIVE')
    const reactivate = await injectApi<UserEnvelope>(app, patchUser(SUSPENDED.id, { status: 'ACTIVE' }))
    expect(reactivate.body.data.status).toBe('ACTIVE')
  })
})

describe('the answer', () => {
  test('200 with { data: User }, the user after the change', async () => {
    const response = await injectApi<UserEnvelope>(app, patchUser(VIEWER.id, { name: 'Ada', role: 'CLIENT_ADMIN' }))
    expect(response.status).toBe(200)
    expect(response.headers['content-type']).toMatch(/^application\/json/)
    expect(response.body.data).toMatchObject({
      id: VIEWER.id,
      email: VIEWER.email,
      name: 'Ada',
      role: 'CLIENT_ADMIN',
      status: 'ACTIVE',
    })
  })
})
