import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createMockApp, startMock, type MockOptions, type RunningMock } from '../../src/server/start-mock.js'
import type { Problem, UserEnvelope } from '../support/api-exchange.js'
import { fetchApi } from '../support/fetch-api.js'
import { injectApi } from '../support/inject-api.js'
import { mockStateOf } from '../support/mock-state-of.js'
import { namedUser } from '../support/named-users.js'

// What a frontend developer asks of the mock to test loading and error states: Prefer (RFC 7240),
// --latency and --fail-rate. None of it changes the state.

const VIEWER = namedUser('viewer-token')
const INVITED = namedUser('invited-token')
/** libuv's timers run on a millisecond clock: a timer may fire up to 1 ms before performance.now() says. */
const TIMER_SLACK_MS = 1

const apps: FastifyInstance[] = []

async function freshApp(options: MockOptions = {}): Promise<FastifyInstance> {
  const { app } = await createMockApp({ users: 5, ...options })
  apps.push(app)
  return app
}

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()))
})

describe('Prefer: code=NNN answers a documented error of the operation', () => {
  test('Prefer: code=404 on GET /api/users/{id} of an existing user answers the documented 404', async () => {
    const app = await freshApp()
    const response = await injectApi<Problem>(app, {
      url: `/api/users/${VIEWER.id}`,
      token: 'owner-token',
      headers: { prefer: 'code=404' },
    })
    expect(response.status).toBe(404)
    expect(response.body.code).toBe('USER_NOT_FOUND')
  })

  test.each([
    [401, 'UNAUTHENTICATED'],
    [403, 'FORBIDDEN'],
    [404, 'USER_NOT_FOUND'],
    [429, 'RATE_LIMITED'],
    [503, 'SERVICE_UNAVAILABLE'],
  ])('every documented error of getUser can be asked for: code=%i answers %s', async (status, code) => {
    const app = await freshApp()
    const response = await injectApi<Problem>(app, {
      url: `/api/users/${VIEWER.id}`,
      token: 'viewer-token',
      headers: { prefer: `code=${status}` },
    })
    expect(response.status).toBe(status)
    expect(response.body.code).toBe(code)
  })

  test('a forced 401 carries WWW-Authenticate, a forced 429 Retry-After', async () => {
    const app = await freshApp()
    const unauthorized = await injectApi(app, {
      url: '/api/users/me',
      token: 'owner-token',
      headers: { prefer: 'code=401' },
    })
    expect(unauthorized.headers['www-authenticate']).toMatch(/^Bearer/)
    const limited = await injectApi(app, {
      url: '/api/users/me',
      token: 'owner-token',
      headers: { prefer: 'code=429' },
    })
    expect(limited.headers['retry-after']).toMatch(/^\d+$/)
  })

  test('Prefer with other preferences around it still finds the code: "return=minimal, code=403"', async () => {
    const app = await freshApp()
    const response = await injectApi(app, {
      url: '/api/users',
      token: 'owner-token',
      headers: { prefer: 'return=minimal, code=403' },
    })
    expect(response.status).toBe(403)
  })

  test.each(['418', '409', '200', '502'])(
    'Prefer: code=%s, not a documented error of GET /api/users/{id}: 400 naming the Prefer header',
    async (code) => {
      const app = await freshApp()
      // getUser does not document a 400: the mock's own refusal is checked against the shared BadRequest.
      const response = await injectApi<Problem>(
        app,
        { url: `/api/users/${VIEWER.id}`, token: 'owner-token', headers: { prefer: `code=${code}` } },
        { conformTo: 'BadRequest' },
      )
      expect(response.status).toBe(400)
      expect(response.body.errors).toContainEqual(expect.objectContaining({ in: 'header', path: '/prefer' }))
    },
  )

  test('authentication still comes first: Prefer: code=404 without a token is 401', async () => {
    const app = await freshApp()
    const response = await injectApi(app, { url: `/api/users/${VIEWER.id}`, headers: { prefer: 'code=404' } })
    expect(response.status).toBe(401)
  })

  test.each([
    ['code=403 on a PATCH an owner may make', 403, { name: 'Forced' }],
    ['code=409 on a PATCH an owner may make', 409, { name: 'Forced' }],
    ['code=503 on a PATCH an owner may make', 503, { name: 'Forced' }],
  ])('%s changes nothing', async (_case, status, body) => {
    const app = await freshApp()
    const before = await mockStateOf(app)
    const response = await injectApi(app, {
      method: 'PATCH',
      url: `/api/users/${VIEWER.id}`,
      token: 'owner-token',
      body,
      headers: { prefer: `code=${status}` },
    })
    expect(response.status).toBe(status)
    expect(await mockStateOf(app)).toEqual(before)
  })

  test('a forced error on DELETE deletes nothing', async () => {
    const app = await freshApp()
    const response = await injectApi(app, {
      method: 'DELETE',
      url: `/api/users/${VIEWER.id}`,
      token: 'owner-token',
      headers: { prefer: 'code=404' },
    })
    expect(response.status).toBe(404)
    expect((await injectApi(app, { url: `/api/users/${VIEWER.id}`, token: 'owner-token' })).status).toBe(200)
  })
})

describe('--fail-rate', () => {
  test('failRate: 1 answers every API call 503 SERVICE_UNAVAILABLE with Retry-After, and changes nothing', async () => {
    const app = await freshApp({ failRate: 1 })
    const before = await mockStateOf(app)
    for (const request of [
      { url: '/api/users', token: 'owner-token' },
      { url: '/api/users/me', token: 'viewer-token' },
      { method: 'PATCH', url: `/api/users/${VIEWER.id}`, token: 'owner-token', body: { name: 'Failed' } },
      { method: 'DELETE', url: `/api/users/${VIEWER.id}`, token: 'owner-token' },
      { method: 'PATCH', url: `/api/users/${INVITED.id}`, token: 'owner-token', body: { status: 'ACTIVE' } },
    ]) {
      const response = await injectApi<Problem>(app, request)
      expect(response.status).toBe(503)
      expect(response.body.code).toBe('SERVICE_UNAVAILABLE')
      expect(response.headers['retry-after']).toMatch(/^\d+$/)
    }
    expect(await mockStateOf(app)).toEqual(before)
  })

  test('failRate: 1 still authenticates first, and leaves the control routes alone', async () => {
    const app = await freshApp({ failRate: 1 })
    expect((await injectApi(app, { url: '/api/users' })).status).toBe(401)
    expect((await injectApi(app, { url: '/__mock/tokens' })).status).toBe(200)
  })

  test('failRate: 0 never fails', async () => {
    const app = await freshApp({ failRate: 0 })
    for (let call = 0; call < 50; call++) {
      expect((await injectApi(app, { url: '/api/users/me', token: 'owner-token' })).status).toBe(200)
    }
  })

  test('failRate: 0.5 fails the calls whose draw is under it', async () => {
    const draws = [0.1, 0.9, 0.49, 0.5]
    const app = await freshApp({ failRate: 0.5, random: () => draws.shift() ?? 0.99 })
    const statuses = []
    for (let call = 0; call < 4; call++)
      statuses.push((await injectApi(app, { url: '/api/users/me', token: 'owner-token' })).status)
    expect(statuses).toEqual([503, 200, 503, 200])
  })
})

describe('latency', () => {
  test('latency: { min: 100, max: 150 } delays every API call by 100 to 150 ms', async () => {
    const app = await freshApp({ latency: { min: 100, max: 150 } })
    for (let call = 0; call < 3; call++) {
      const started = performance.now()
      const response = await injectApi(app, { url: '/api/users/me', token: 'owner-token' })
      const elapsed = performance.now() - started
      expect(response.status).toBe(200)
      expect(elapsed).toBeGreaterThanOrEqual(100 - TIMER_SLACK_MS)
      // Not seconds for milliseconds: far below 100 s, with room for a busy machine.
      expect(elapsed).toBeLessThan(5_000)
    }
  })

  test('latency with a fixed draw waits exactly min + draw × (max − min)', async () => {
    const app = await freshApp({ latency: { min: 100, max: 300 }, random: () => 1 })
    const started = performance.now()
    await injectApi(app, { url: '/api/users/me', token: 'owner-token' })
    expect(performance.now() - started).toBeGreaterThanOrEqual(300 - TIMER_SLACK_MS)
  })

  test('latency leaves the control routes alone', async () => {
    // A latency far beyond what a busy machine adds to an in-process call: answered before it, not delayed.
    const app = await freshApp({ latency: { min: 15_000, max: 15_000 } })
    const started = performance.now()
    await injectApi(app, { url: '/__mock/tokens' })
    expect(performance.now() - started).toBeLessThan(15_000)
  })
})

describe('Prefer: delay over a real socket', () => {
  let mock: RunningMock

  beforeAll(async () => {
    mock = await startMock({ users: 5 })
  })

  afterAll(async () => {
    await mock.close()
  })

  test('Prefer: delay=200 answers after at least 200 ms, with the normal answer', async () => {
    const started = performance.now()
    const response = await fetchApi<UserEnvelope>(mock.url, {
      url: '/api/users/me',
      token: 'owner-token',
      headers: { prefer: 'delay=200' },
    })
    const elapsed = performance.now() - started
    expect(response.status).toBe(200)
    expect(response.body.data.id).toBe(namedUser('owner-token').id)
    expect(elapsed).toBeGreaterThanOrEqual(200 - TIMER_SLACK_MS)
  })

  test('Prefer: delay=200, code=503 waits, then answers the 503', async () => {
    const started = performance.now()
    const response = await fetchApi(mock.url, {
      url: '/api/users',
      token: 'owner-token',
      headers: { prefer: 'delay=200, code=503' },
    })
    expect(response.status).toBe(503)
    expect(performance.now() - started).toBeGreaterThanOrEqual(200 - TIMER_SLACK_MS)
  })

  test('without Prefer, no delay: answered before a request that asks for one', async () => {
    // Raced against a delayed twin sent first, not against the clock: a busy machine slows both alike.
    const order: string[] = []
    const delayed = fetchApi(mock.url, {
      url: '/api/users/me',
      token: 'owner-token',
      headers: { prefer: 'delay=2000' },
    })
    const plain = fetchApi(mock.url, { url: '/api/users/me', token: 'owner-token' })
    await Promise.all([delayed.then(() => order.push('delayed')), plain.then(() => order.push('plain'))])
    expect(order).toEqual(['plain', 'delayed'])
  })
})
