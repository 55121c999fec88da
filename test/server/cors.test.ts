import { afterEach, describe, expect, test } from 'vitest'
import { startMock, type StartMockOptions, type RunningMock } from '../../src/server/start-mock.js'
import { fetchApi } from '../support/fetch-api.js'
import { namedUser } from '../support/named-users.js'

// A frontend on another origin calls the mock from a browser: preflights and the headers it may read.
// Real sockets and fetch, as a browser would send them.

const ORIGIN = 'http://localhost:5173'
const VIEWER_ID = namedUser('viewer-token').id

const mocks: RunningMock[] = []

async function freshMock(options: StartMockOptions = {}): Promise<RunningMock> {
  const mock = await startMock({ users: 5, disposable: 0, ...options })
  mocks.push(mock)
  return mock
}

afterEach(async () => {
  await Promise.all(mocks.splice(0).map((mock) => mock.close()))
})

function preflight(mock: RunningMock, path: string, method: string, origin = ORIGIN) {
  return fetchApi(mock.url, {
    method: 'OPTIONS',
    url: path,
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization,content-type',
    },
  })
}

function listOf(header: string | undefined): string[] {
  return (header ?? '').split(',').map((item) => item.trim().toLowerCase())
}

describe('the default: any origin', () => {
  test.each([
    ['PATCH', '/api/users/{id}', `/api/users/${VIEWER_ID}`],
    ['DELETE', '/api/users/{id}', `/api/users/${VIEWER_ID}`],
    ['GET', '/api/users', '/api/users'],
  ])('a preflight for %s %s with Authorization, without a token: 204 allowing it', async (method, _template, path) => {
    const mock = await freshMock()
    const response = await preflight(mock, path, method)
    expect(response.status).toBe(204)
    expect(response.headers['access-control-allow-origin']).toBe(ORIGIN)
    expect(listOf(response.headers['access-control-allow-methods'])).toContain(method.toLowerCase())
    expect(listOf(response.headers['access-control-allow-headers'])).toEqual(
      expect.arrayContaining(['authorization', 'content-type']),
    )
  })

  test.each([
    ['PUT', '/__mock/state'],
    ['GET', '/docs/json'],
  ])('is for the users API: a preflight for %s %s (the mock’s own) allows no other origin', async (method, path) => {
    const mock = await freshMock()
    const response = await preflight(mock, path, method)
    expect(response.headers['access-control-allow-origin']).toBeUndefined()
  })

  test('an actual answer carries Access-Control-Allow-Origin and exposes WWW-Authenticate, Allow and Retry-After', async () => {
    const mock = await freshMock()
    const response = await fetchApi(mock.url, {
      url: '/api/users/me',
      token: 'owner-token',
      headers: { origin: ORIGIN },
    })
    expect(response.status).toBe(200)
    expect(response.headers['access-control-allow-origin']).toBe(ORIGIN)
    expect(listOf(response.headers['access-control-expose-headers'])).toEqual(
      expect.arrayContaining(['www-authenticate', 'allow', 'retry-after']),
    )
  })

  test('a 401 carries the CORS headers too, so that the browser lets the page read WWW-Authenticate', async () => {
    const mock = await freshMock()
    const response = await fetchApi(mock.url, { url: '/api/users/me', headers: { origin: ORIGIN } })
    expect(response.status).toBe(401)
    expect(response.headers['access-control-allow-origin']).toBe(ORIGIN)
    expect(listOf(response.headers['access-control-expose-headers'])).toContain('www-authenticate')
  })

  test.each([
    ['without Origin', {}],
    ['with Origin but without Access-Control-Request-Method', { origin: ORIGIN }],
  ])('a plain OPTIONS %s is no error (never a text/plain 400): 204', async (_case, headers: Record<string, string>) => {
    const mock = await freshMock()
    const response = await fetchApi(mock.url, { method: 'OPTIONS', url: '/api/users', headers })
    expect(response.status).toBe(204)
  })

  test('a real PATCH from the origin after its preflight succeeds', async () => {
    const mock = await freshMock()
    expect((await preflight(mock, `/api/users/${VIEWER_ID}`, 'PATCH')).status).toBe(204)
    const response = await fetchApi(mock.url, {
      method: 'PATCH',
      url: `/api/users/${VIEWER_ID}`,
      token: 'owner-token',
      body: { name: 'From The Browser' },
      headers: { origin: ORIGIN },
    })
    expect(response.status).toBe(200)
    expect(response.headers['access-control-allow-origin']).toBe(ORIGIN)
  })
})

describe('cors: false', () => {
  test('no CORS headers on a preflight or an answer', async () => {
    const mock = await freshMock({ cors: false })
    const answer = await fetchApi(mock.url, { url: '/api/users/me', token: 'owner-token', headers: { origin: ORIGIN } })
    expect(answer.status).toBe(200)
    const options = await preflight(mock, `/api/users/${VIEWER_ID}`, 'PATCH')
    for (const response of [answer, options]) {
      expect(Object.keys(response.headers).filter((name) => name.startsWith('access-control-'))).toEqual([])
    }
  })
})

describe("cors: ['http://a.example']", () => {
  test('that origin is allowed, on preflights and answers', async () => {
    const mock = await freshMock({ cors: ['http://a.example'] })
    const options = await preflight(mock, `/api/users/${VIEWER_ID}`, 'PATCH', 'http://a.example')
    expect(options.status).toBe(204)
    expect(options.headers['access-control-allow-origin']).toBe('http://a.example')
    const answer = await fetchApi(mock.url, {
      url: '/api/users/me',
      token: 'owner-token',
      headers: { origin: 'http://a.example' },
    })
    expect(answer.headers['access-control-allow-origin']).toBe('http://a.example')
  })

  test('another origin is not', async () => {
    const mock = await freshMock({ cors: ['http://a.example'] })
    const options = await preflight(mock, `/api/users/${VIEWER_ID}`, 'PATCH', 'http://b.example')
    expect(options.headers['access-control-allow-origin']).toBeUndefined()
    const answer = await fetchApi(mock.url, {
      url: '/api/users/me',
      token: 'owner-token',
      headers: { origin: 'http://b.example' },
    })
    expect(answer.status).toBe(200)
    expect(answer.headers['access-control-allow-origin']).toBeUndefined()
    expect(answer.headers['access-control-expose-headers']).toBeUndefined()
    expect(answer.headers['vary']).toBe('Origin')
  })
})

describe('a request without Origin (curl, a test, a backend): not a CORS request', () => {
  test('its answer varies by Origin and carries nothing a page reads', async () => {
    const mock = await freshMock()
    for (const token of ['owner-token', undefined]) {
      const answer = await fetchApi(mock.url, { url: '/api/users/me', ...(token ? { token } : {}) })
      expect(answer.status).toBe(token ? 200 : 401)
      expect(answer.headers['vary']).toBe('Origin')
      expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([])
    }
  })
})
