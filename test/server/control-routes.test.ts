import { readFileSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { parseTarget, TARGET_SCHEMA_PATH } from '../../src/contract/target/target.js'
import { DEFAULT_DISPOSABLE_USERS } from '../../src/mock-instance/create-target.js'
import { STATE_LIMITS } from '../../src/mock-instance/state-limits.js'
import type { MockState } from '../../src/domain/mock-state.js'
import type { TokenListing } from '../../src/mock-instance/token-listing.js'
import { createAjv } from '../../src/spec/create-ajv.js'
import { createMockApp } from '../../src/server/start-mock.js'
import type { Problem, UserEnvelope } from '../support/api-exchange.js'
import { injectApi } from '../support/inject-api.js'
import { mockStateOf } from '../support/mock-state-of.js'
import { namedUser } from '../support/named-users.js'
import { ACTOR_ROLES } from '../../src/target/target-format.js'

// CONTRACT §7: the mock's own routes under /__mock/. Not the users API, and no token needed.

let app: FastifyInstance

beforeEach(async () => {
  ;({ app } = await createMockApp({ users: 5 }))
})

afterEach(async () => {
  await app.close()
})

const validateTargetSchema = createAjv().compile(JSON.parse(readFileSync(TARGET_SCHEMA_PATH, 'utf8')) as object)

interface TargetBody {
  baseUrl: string
  actors: Record<string, { token: string }>
  disposable: Array<{ id: string; token: string }>
}

function me(token: string) {
  return injectApi<UserEnvelope>(app, { url: '/api/users/me', token })
}

describe('GET /__mock/tokens', () => {
  test('lists every token with its user, role, status and organization, the named ones included', async () => {
    const response = await injectApi<{ data: TokenListing[] }>(app, { url: '/__mock/tokens' })
    expect(response.status).toBe(200)
    const owner = namedUser('owner-token')
    expect(response.body.data).toContainEqual({
      token: 'owner-token',
      userId: owner.id,
      name: owner.name,
      email: owner.email,
      role: owner.role,
      status: owner.status,
      organizationId: owner.organizationId,
    })
    const tokens = response.body.data.map((entry) => entry.token)
    expect(tokens).toEqual(
      expect.arrayContaining([
        'admin-token',
        'viewer-token',
        'bot-token',
        'owner2-token',
        'suspended-token',
        'invited-token',
        'outsider-token',
      ]),
    )
    expect(new Set(tokens).size).toBe(tokens.length)
  })

  test('each listed token authenticates as its user exactly when that user is ACTIVE', async () => {
    const response = await injectApi<{ data: TokenListing[] }>(app, { url: '/__mock/tokens' })
    const statuses = new Set<string>()
    for (const entry of response.body.data) {
      statuses.add(entry.status)
      const answer = await me(entry.token)
      if (entry.status === 'ACTIVE') expect(answer.body.data.id).toBe(entry.userId)
      else expect(answer.status).toBe(401)
    }
    // Both halves ran: the fixtures hold suspended and invited users.
    expect([...statuses].sort()).toEqual(['ACTIVE', 'INVITED', 'SUSPENDED'])
  })
})

describe('POST /__mock/target', () => {
  test('answers a target valid against schemas/target.schema.json, that parseTarget accepts', async () => {
    const response = await injectApi<TargetBody>(app, { method: 'POST', url: '/__mock/target' })
    expect(response.status).toBe(200)
    expect(validateTargetSchema(response.body), JSON.stringify(validateTargetSchema.errors)).toBe(true)
    const target = parseTarget(response.body)
    expect(Object.keys(target.actors).sort()).toEqual(['admin', 'bot', 'outsider', 'owner', 'viewer'])
    expect(target.disposable).toHaveLength(DEFAULT_DISPOSABLE_USERS)
    // A receiver that subscribes itself through POST /__mock/webhooks, with a secret of its own.
    expect(target.webhooks).toMatchObject({ listen: '127.0.0.1:0', autoSubscribe: true })
    expect(target.webhooks && target.webhooks.secret).toMatch(/^whsec_/)
  })

  test('its actors are ACTIVE users of the roles they name, the outsider of another organization', async () => {
    const target = (await injectApi<TargetBody>(app, { method: 'POST', url: '/__mock/target' })).body
    const owner = (await me(target.actors['owner']!.token)).body.data
    for (const [actor, role] of Object.entries(ACTOR_ROLES)) {
      const user = (await me(target.actors[actor]!.token)).body.data
      expect(user).toMatchObject({ role, status: 'ACTIVE', organizationId: owner.organizationId })
    }
    const outsider = (await me(target.actors['outsider']!.token)).body.data
    expect(outsider.status).toBe('ACTIVE')
    expect(outsider.organizationId).not.toBe(owner.organizationId)
  })

  test("each call creates fresh disposable ACTIVE CLIENT_VIEWERs of the owner's organization whose tokens work", async () => {
    const first = (await injectApi<TargetBody>(app, { method: 'POST', url: '/__mock/target' })).body
    const second = (await injectApi<TargetBody>(app, { method: 'POST', url: '/__mock/target?disposable=2' })).body
    expect(second.disposable).toHaveLength(2)
    const ids = [...first.disposable, ...second.disposable].map((user) => user.id)
    expect(new Set(ids).size).toBe(DEFAULT_DISPOSABLE_USERS + 2)
    const organizationId = namedUser('owner-token').organizationId
    for (const disposable of [...first.disposable, ...second.disposable]) {
      const user = (await me(disposable.token)).body.data
      expect(user).toMatchObject({ id: disposable.id, role: 'CLIENT_VIEWER', status: 'ACTIVE', organizationId })
    }
  })

  test('disposable users can be changed and deleted by the owner', async () => {
    const [user] = (await injectApi<TargetBody>(app, { method: 'POST', url: '/__mock/target?disposable=1' })).body
      .disposable
    const rename = await injectApi(app, {
      method: 'PATCH',
      url: `/api/users/${user!.id}`,
      token: 'owner-token',
      body: { name: 'Changed' },
    })
    expect(rename.status).toBe(200)
    expect(
      (await injectApi(app, { method: 'DELETE', url: `/api/users/${user!.id}`, token: 'owner-token' })).status,
    ).toBe(204)
  })

  test('GET creates nothing: 405 with Allow: POST', async () => {
    const before = await mockStateOf(app)
    const response = await injectApi<Problem>(app, { url: '/__mock/target' })
    expect(response.status).toBe(405)
    expect(response.headers['allow']).toBe('POST')
    expect(await mockStateOf(app)).toEqual(before)
  })

  test('the 300th call costs about what the first did', async () => {
    const timeCall = async () => {
      const started = performance.now()
      await injectApi(app, { method: 'POST', url: '/__mock/target?disposable=6' })
      return performance.now() - started
    }
    const first = Math.min(await timeCall(), await timeCall(), await timeCall())
    for (let call = 0; call < 300; call++) await timeCall()
    const later = Math.min(await timeCall(), await timeCall(), await timeCall())
    expect(later).toBeLessThan(Math.max(first * 5, 20))
  })

  test(`disposable users stop at ${STATE_LIMITS.disposableUsers} alive: the call past it is a 413 and creates nobody; a reset frees them`, async () => {
    for (let call = 0; call < STATE_LIMITS.disposableUsers / 100; call++) {
      expect((await injectApi(app, { method: 'POST', url: '/__mock/target?disposable=100' })).status).toBe(200)
    }
    const before = (await mockStateOf(app)).users.length
    const refused = await injectApi<Problem>(app, { method: 'POST', url: '/__mock/target?disposable=1' })
    expect(refused.status).toBe(413)
    expect(refused.body.detail).toContain(`at most ${STATE_LIMITS.disposableUsers}`)
    expect((await mockStateOf(app)).users).toHaveLength(before)
    await injectApi(app, { method: 'POST', url: '/__mock/reset' })
    expect((await injectApi(app, { method: 'POST', url: '/__mock/target?disposable=1' })).status).toBe(200)
  }, 60_000)

  test.each(['abc', '-1', '101', '1.5'])('disposable=%s: 400', async (count) => {
    const response = await injectApi<Problem>(app, { method: 'POST', url: `/__mock/target?disposable=${count}` })
    expect(response.status).toBe(400)
    expect(response.body.code).toBe('VALIDATION_FAILED')
  })
})

describe('POST /__mock/reset', () => {
  test('restores the seed after a delete and a rename', async () => {
    const seeded = await mockStateOf(app)
    const viewer = namedUser('viewer-token')
    await injectApi(app, { method: 'DELETE', url: `/api/users/${viewer.id}`, token: 'owner-token' })
    await injectApi(app, {
      method: 'PATCH',
      url: `/api/users/${namedUser('admin-token').id}`,
      token: 'owner-token',
      body: { name: 'Renamed' },
    })
    expect(await mockStateOf(app)).not.toEqual(seeded)
    const reset = await injectApi<{ organizations: number; users: number }>(app, {
      method: 'POST',
      url: '/__mock/reset',
    })
    expect(reset.status).toBe(200)
    expect(reset.body).toEqual({ organizations: seeded.organizations.length, users: seeded.users.length })
    expect(await mockStateOf(app)).toEqual(seeded)
    expect((await me('viewer-token')).status).toBe(200)
  })
})

describe('GET and PUT /__mock/state', () => {
  test('GET then PUT of the same document round-trips: the state is unchanged', async () => {
    const state = await mockStateOf(app)
    const put = await injectApi(app, { method: 'PUT', url: '/__mock/state', body: state })
    expect(put.status).toBe(200)
    expect(await mockStateOf(app)).toEqual(state)
  })

  test('a PUT replaces the state: the API answers from the new one', async () => {
    const state = await mockStateOf(app)
    const edited: MockState = {
      ...state,
      users: state.users.map((user) => (user.token === 'viewer-token' ? { ...user, name: 'Loaded Name' } : user)),
    }
    expect((await injectApi(app, { method: 'PUT', url: '/__mock/state', body: edited })).status).toBe(200)
    expect((await me('viewer-token')).body.data.name).toBe('Loaded Name')
  })

  type Corruption = (state: MockState) => { document: unknown; path: string }
  test.each<[string, Corruption]>([
    [
      'a user without an email',
      (state) => {
        const [first, ...rest] = state.users
        const withoutEmail: Record<string, unknown> = { ...first }
        delete withoutEmail['email']
        return { document: { ...state, users: [withoutEmail, ...rest] }, path: '/users/0/email' }
      },
    ],
    [
      'a duplicate email, in another case',
      (state) => {
        const copy = {
          ...state.users[1]!,
          id: 'usr_copyqqqqqqqqqqqqqqqq',
          token: 'copy-token',
          email: state.users[1]!.email.toUpperCase(),
        }
        return { document: { ...state, users: [...state.users, copy] }, path: `/users/${state.users.length}/email` }
      },
    ],
    [
      'an unknown role',
      (state) => ({
        document: {
          ...state,
          users: state.users.map((user, index) => (index === 2 ? { ...user, role: 'SUPERUSER' } : user)),
        },
        path: '/users/2/role',
      }),
    ],
    [
      'a duplicate user id',
      (state) => {
        const copy = { ...state.users[1]!, email: 'copy@example.com', token: 'copy-token' }
        return { document: { ...state, users: [...state.users, copy] }, path: `/users/${state.users.length}/id` }
      },
    ],
    [
      'a user of an unknown organization',
      (state) => ({
        document: {
          ...state,
          users: state.users.map((user, index) => (index === 3 ? { ...user, organizationId: 'org_nowhere' } : user)),
        },
        path: '/users/3/organizationId',
      }),
    ],
    [
      'a token given to two users',
      (state) => ({
        document: {
          ...state,
          users: state.users.map((user, index) => (index === 4 ? { ...user, token: 'owner-token' } : user)),
        },
        path: `/users/${Math.max(
          4,
          state.users.findIndex((user) => user.token === 'owner-token'),
        )}/token`,
      }),
    ],
    ['an unknown key', (state) => ({ document: { ...state, extra: true }, path: '/extra' })],
  ])('an invalid state (%s): 400 naming the path, and the old state stays', async (_case, corrupt) => {
    const before = await mockStateOf(app)
    const { document, path } = corrupt(structuredClone(before))
    const response = await injectApi<Problem>(app, { method: 'PUT', url: '/__mock/state', body: document })
    expect(response.status).toBe(400)
    expect(response.body.code).toBe('VALIDATION_FAILED')
    expect(response.body.errors?.map((issue) => issue.path)).toContain(path)
    expect(response.body.detail).toContain(path)
    expect(await mockStateOf(app)).toEqual(before)
  })

  test('a PUT as text/plain: 415, and the old state stays', async () => {
    const before = await mockStateOf(app)
    const response = await injectApi<Problem>(app, {
      method: 'PUT',
      url: '/__mock/state',
      body: JSON.stringify(before),
      headers: { 'content-type': 'text/plain' },
    })
    expect(response.status).toBe(415)
    expect(response.body.code).toBe('UNSUPPORTED_MEDIA_TYPE')
    expect(await mockStateOf(app)).toEqual(before)
  })

  test('a PUT of something that is not JSON: 400, and the old state stays', async () => {
    const before = await mockStateOf(app)
    const response = await injectApi<Problem>(app, {
      method: 'PUT',
      url: '/__mock/state',
      body: '{"organizations": [',
      headers: { 'content-type': 'application/json' },
    })
    expect(response.status).toBe(400)
    expect(await mockStateOf(app)).toEqual(before)
  })

  test('90,000 junk users: a 400 naming the first, in bounded memory and time, and the old state stays', async () => {
    const before = await mockStateOf(app)
    const junk = `{"organizations":[],"users":[${'1,'.repeat(89_999)}1]}`
    const rssBefore = process.memoryUsage().rss
    const started = performance.now()
    const response = await injectApi<Problem>(app, {
      method: 'PUT',
      url: '/__mock/state',
      body: junk,
      headers: { 'content-type': 'application/json' },
    })
    // One error object per bad item took 2.4 GB; the state validator stops at the first.
    expect(response.status).toBe(400)
    expect(response.body.errors).toHaveLength(1)
    expect(response.body.detail).toContain('/users/0')
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(300 * 1024 * 1024)
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(await mockStateOf(app)).toEqual(before)
  })

  test('12 MB of junk users, more than a state may hold: a 413 naming the limit, before anything is parsed', async () => {
    const before = await mockStateOf(app)
    const junk = `{"organizations":[],"users":[${'1,'.repeat(6_000_000)}1]}`
    const response = await injectApi<Problem>(app, {
      method: 'PUT',
      url: '/__mock/state',
      body: junk,
      headers: { 'content-type': 'application/json' },
    })
    expect(response.status).toBe(413)
    expect(response.body.detail).toMatch(
      /more than 110000 elements.*at most 64 MiB, 10000 organizations and 100000 users/,
    )
    expect(await mockStateOf(app)).toEqual(before)
  })

  test('reset after a PUT returns to the seed, not to the loaded state', async () => {
    const seeded = await mockStateOf(app)
    await injectApi(app, { method: 'PUT', url: '/__mock/state', body: { ...seeded, users: seeded.users.slice(0, 3) } })
    expect((await mockStateOf(app)).users).toHaveLength(3)
    await injectApi(app, { method: 'POST', url: '/__mock/reset' })
    expect(await mockStateOf(app)).toEqual(seeded)
  })
})
