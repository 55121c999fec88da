import { request as httpRequest } from 'node:http'
import type { FastifyInstance } from 'fastify'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFetchHandler } from '../../src/fetch/index.js'
import { createMockHandlers } from '../../src/msw/index.js'
import { createMockApp, startMock, type RunningMock } from '../../src/server/start-mock.js'
import { fetchApi } from '../support/fetch-api.js'
import { injectApi } from '../support/inject-api.js'
import { namedUser } from '../support/named-users.js'

// HEAD on the GET routes answers as GET would, without a body (RFC 9110 §9.3.2): the same status and
// headers, Content-Length the GET's (issue 36: it was absent), on every transport. Nothing here writes.

/** GETs and HEADs whose answers are compared: a user, a list, a 400, a 404 and a 401. */
const COMPARED: Array<{ url: string; token?: string }> = [
  { url: '/api/users/me', token: 'owner-token' },
  { url: '/api/users?limit=7&page=2', token: 'owner-token' },
  { url: '/api/users?limit=0', token: 'owner-token' },
  { url: '/api/users/usr_zzzzzzzzzzzzzzzzzzzz', token: 'owner-token' },
  { url: '/api/users' },
]

/** Status, Content-Type, Content-Length and the body's bytes, as node's client read them off the wire. */
function readOverSocket(base: string, method: string, url: string, token?: string) {
  return new Promise<{ status: number; type?: string; length?: string; bytes: number }>((resolve, reject) => {
    const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` }
    const outgoing = httpRequest(`${base}${url}`, { method, headers, agent: false }, (response) => {
      let bytes = 0
      response.on('data', (chunk: Buffer) => (bytes += chunk.byteLength))
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          type: response.headers['content-type'],
          length: response.headers['content-length'],
          bytes,
        }),
      )
    })
    outgoing.on('error', reject)
    outgoing.end()
  })
}

let app: FastifyInstance

beforeAll(async () => {
  ;({ app } = await createMockApp({ users: 5 }))
})

afterAll(async () => {
  await app.close()
})

describe('HEAD in-process', () => {
  test('HEAD /api/users/me with a token: 200, the headers of GET, no body', async () => {
    const head = await injectApi(app, { method: 'HEAD', url: '/api/users/me', token: 'owner-token' })
    const get = await injectApi(app, { url: '/api/users/me', token: 'owner-token' })
    expect(head.status).toBe(200)
    expect(head.text).toBe('')
    expect(head.headers['content-type']).toBe(get.headers['content-type'])
  })

  test('HEAD /api/users/me without a token: 401 with WWW-Authenticate, no body', async () => {
    const head = await injectApi(app, { method: 'HEAD', url: '/api/users/me' })
    expect(head.status).toBe(401)
    expect(head.headers['www-authenticate']).toBe('Bearer')
    expect(head.text).toBe('')
  })

  test.each([
    ['/api/users', 'owner-token', 200],
    ['/api/users', 'bot-token', 403],
    ['/api/users?limit=0', 'owner-token', 400],
    [`/api/users/${namedUser('viewer-token').id}`, 'viewer-token', 200],
    ['/api/users/usr_zzzzzzzzzzzzzzzzzzzz', 'owner-token', 404],
  ])('HEAD %s as %s: %i, as GET would, with no body', async (url, token, status) => {
    const head = await injectApi(app, { method: 'HEAD', url, token })
    expect(head.status).toBe(status)
    expect(head.text).toBe('')
  })
})

describe('HEAD over a real socket', () => {
  let mock: RunningMock

  beforeAll(async () => {
    mock = await startMock({ users: 5, disposable: 0 })
  })

  afterAll(async () => {
    await mock.close()
  })

  test.each(COMPARED)('HEAD $url: the Content-Length of its GET, and no body', async ({ url, token }) => {
    // Twice: the first HEAD from the engine, the second from its answer cache.
    for (const round of [1, 2]) {
      const get = await readOverSocket(mock.url, 'GET', url, token)
      const head = await readOverSocket(mock.url, 'HEAD', url, token)
      expect(get.length, `round ${round}`).toBe(String(get.bytes))
      expect(head, `round ${round}`).toEqual({ ...get, bytes: 0 })
    }
  })

  test('HEAD /api/users/me: 200 with a token, 401 without, never a body', async () => {
    const allowed = await fetchApi(mock.url, { method: 'HEAD', url: '/api/users/me', token: 'owner-token' })
    expect(allowed.status).toBe(200)
    expect(allowed.text).toBe('')
    const refused = await fetchApi(mock.url, { method: 'HEAD', url: '/api/users/me' })
    expect(refused.status).toBe(401)
    expect(refused.headers['www-authenticate']).toBe('Bearer')
    expect(refused.text).toBe('')
  })
})

describe('HEAD on the other transports', () => {
  test.each(COMPARED)('the fetch handler: HEAD $url has the Content-Length of its GET', async ({ url, token }) => {
    const handle = createFetchHandler({ users: 5 })
    const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` }
    const get = await handle(new Request(`http://app.test${url}`, { headers }))
    const head = await handle(new Request(`http://app.test${url}`, { method: 'HEAD', headers }))
    const bytes = (await get.arrayBuffer()).byteLength
    expect(head.status).toBe(get.status)
    expect(head.headers.get('content-length')).toBe(String(bytes))
    expect(await head.text()).toBe('')
  })

  test('MSW (msw/node): HEAD has the Content-Length of its GET, and no body', async () => {
    const server = setupServer(...createMockHandlers({ baseUrl: 'http://localhost:4010', users: 5 }).handlers)
    server.listen({ onUnhandledFrame: 'error' })
    try {
      for (const { url, token } of COMPARED) {
        const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` }
        const get = await fetch(`http://localhost:4010${url}`, { headers })
        const head = await fetch(`http://localhost:4010${url}`, { method: 'HEAD', headers })
        const bytes = (await get.arrayBuffer()).byteLength
        expect([url, head.status, head.headers.get('content-length')]).toEqual([url, get.status, String(bytes)])
        expect(await head.text()).toBe('')
      }
    } finally {
      server.close()
    }
  })
})
