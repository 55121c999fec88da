import type { FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { createMockApp } from '../../src/server/start-mock.js'
import type { ApiRequest, Problem, UserEnvelope } from '../support/api-exchange.js'
import { injectApi } from '../support/inject-api.js'
import { mockStateOf } from '../support/mock-state-of.js'
import { namedUser } from '../support/named-users.js'

// CONTRACT §4, PATCH /api/users/{id}: what the contract suite does not check against this mock (it runs
// against it: contract-tests/update-user, order-of-checks, errors-and-limits): the pointer of each bad body's
// issue, a form-urlencoded body, a charset without a space, two changes in one millisecond, and the INVITED
// user, whom the suite never changes.

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
})

describe('the Content-Type: application/json or 415', () => {
  test.each([['application/x-www-form-urlencoded', { 'content-type': 'application/x-www-form-urlencoded' }]])(
    '%s: 415 UNSUPPORTED_MEDIA_TYPE, and nothing changes',
    async (_case, headers: Record<string, string>) => {
      const before = await mockStateOf(app)
      const response = await injectApi<Problem>(app, patchUser(VIEWER.id, '{"name":"Ada"}', headers))
      expect(response.status).toBe(415)
      expect(response.body.code).toBe('UNSUPPORTED_MEDIA_TYPE')
      expect(await mockStateOf(app)).toEqual(before)
    },
  )

  test.each(['application/json;charset=UTF-8'])('%s is accepted', async (type) => {
    const response = await injectApi<UserEnvelope>(
      app,
      patchUser(VIEWER.id, '{"name":"Ada"}', { 'content-type': type }),
    )
    expect(response.status).toBe(200)
    expect(response.body.data.name).toBe('Ada')
  })
})

describe('updatedAt', () => {
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
})
