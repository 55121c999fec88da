import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { createMockApp, startMock, type RunningMock } from '../src/server/start-mock.js'
import type { ApiExchange, ApiRequest, Problem } from './support/api-exchange.js'
import { fetchApi } from './support/fetch-api.js'
import { injectApi } from './support/inject-api.js'
import { namedUser } from './support/named-users.js'

// CONTRACT §5: every error is application/problem+json with type, title, status, code and detail;
// `errors` on 400 only. injectApi and fetchApi also check each answer against the document.

const VIEWER_ID = namedUser('viewer-token').id
const INVITED_ID = namedUser('invited-token').id
/** Over 16 KiB: 17 KiB of JSON. */
const BIG_BODY = JSON.stringify({ name: 'x'.repeat(17 * 1024) })

function expectProblem(response: ApiExchange<Problem>, status: number, code: string): void {
  expect(response.status, response.text).toBe(status)
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json(;|$)/)
  expect(response.body).toMatchObject({
    type: expect.any(String),
    title: expect.stringMatching(/\S/),
    status,
    code,
    detail: expect.stringMatching(/\S/),
  })
  if (status === 400) expect(response.body.errors?.length).toBeGreaterThan(0)
  else expect(response.body).not.toHaveProperty('errors')
}

describe('every error the mock answers in-process is a problem of CONTRACT §5', () => {
  let app: FastifyInstance

  beforeEach(async () => {
    ;({ app } = await createMockApp({ users: 5 }))
  })

  afterEach(async () => {
    await app.close()
  })

  const CASES: Array<[rule: string, status: number, code: string, request: ApiRequest]> = [
    ['an invalid query', 400, 'VALIDATION_FAILED', { url: '/api/users?limit=0', token: 'owner-token' }],
    [
      'an invalid body',
      400,
      'VALIDATION_FAILED',
      { method: 'PATCH', url: `/api/users/${VIEWER_ID}`, token: 'owner-token', body: { name: '' } },
    ],
    ['no token', 401, 'UNAUTHENTICATED', { url: '/api/users' }],
    ['an unknown token', 401, 'UNAUTHENTICATED', { url: '/api/users/me', token: 'no-such-token' }],
    [
      'a viewer deleting',
      403,
      'FORBIDDEN',
      { method: 'DELETE', url: `/api/users/${VIEWER_ID}`, token: 'viewer-token' },
    ],
    ['a bot listing', 403, 'FORBIDDEN', { url: '/api/users', token: 'bot-token' }],
    ['an unknown user id', 404, 'USER_NOT_FOUND', { url: '/api/users/usr_zzzzzzzzzzzzzzzzzzzz', token: 'owner-token' }],
    ['an unknown route', 404, 'NOT_FOUND', { url: '/api/teams', token: 'owner-token' }],
    [
      'PATCH /api/users/me',
      405,
      'METHOD_NOT_ALLOWED',
      { method: 'PATCH', url: '/api/users/me', token: 'owner-token', body: { name: 'x' } },
    ],
    [
      'DELETE /api/users/me',
      405,
      'METHOD_NOT_ALLOWED',
      { method: 'DELETE', url: '/api/users/me', token: 'owner-token' },
    ],
    [
      'POST /api/users',
      405,
      'METHOD_NOT_ALLOWED',
      { method: 'POST', url: '/api/users', token: 'owner-token', body: { name: 'x' } },
    ],
    [
      'PUT /api/users/{id}',
      405,
      'METHOD_NOT_ALLOWED',
      { method: 'PUT', url: `/api/users/${VIEWER_ID}`, token: 'owner-token', body: { name: 'x' } },
    ],
    [
      'an INVITED user’s status',
      409,
      'INVALID_TRANSITION',
      { method: 'PATCH', url: `/api/users/${INVITED_ID}`, token: 'owner-token', body: { status: 'ACTIVE' } },
    ],
    [
      'a body over 16 KiB',
      413,
      'PAYLOAD_TOO_LARGE',
      {
        method: 'PATCH',
        url: `/api/users/${VIEWER_ID}`,
        token: 'owner-token',
        body: BIG_BODY,
        headers: { 'content-type': 'application/json' },
      },
    ],
    [
      'a body over 16 KiB as text/plain (413 before 415)',
      413,
      'PAYLOAD_TOO_LARGE',
      {
        method: 'PATCH',
        url: `/api/users/${VIEWER_ID}`,
        token: 'owner-token',
        body: BIG_BODY,
        headers: { 'content-type': 'text/plain' },
      },
    ],
    [
      'a body as text/plain',
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      {
        method: 'PATCH',
        url: `/api/users/${VIEWER_ID}`,
        token: 'owner-token',
        body: '{"name":"x"}',
        headers: { 'content-type': 'text/plain' },
      },
    ],
    [
      'Prefer: code=429',
      429,
      'RATE_LIMITED',
      { url: '/api/users', token: 'owner-token', headers: { prefer: 'code=429' } },
    ],
    [
      'Prefer: code=503',
      503,
      'SERVICE_UNAVAILABLE',
      { url: `/api/users/${VIEWER_ID}`, token: 'owner-token', headers: { prefer: 'code=503' } },
    ],
  ]

  test.each(CASES)('%s: %i %s as problem+json', async (_rule, status, code, request) => {
    expectProblem(await injectApi<Problem>(app, request), status, code)
  })

  test('a 401 carries WWW-Authenticate: Bearer', async () => {
    const response = await injectApi(app, { url: '/api/users' })
    expect(response.headers['www-authenticate']).toBe('Bearer')
  })

  test.each([
    ['PATCH', '/api/users/me', 'GET'],
    ['DELETE', '/api/users/me', 'GET'],
    ['POST', '/api/users', 'GET'],
    ['PUT', `/api/users/${VIEWER_ID}`, 'DELETE, GET, PATCH'],
    ['POST', `/api/users/${VIEWER_ID}`, 'DELETE, GET, PATCH'],
  ])('%s %s: 405 with Allow listing %s', async (method, url, allow) => {
    const response = await injectApi(app, { method, url, token: 'owner-token' })
    expect(response.status).toBe(405)
    const allowed = (response.headers['allow'] ?? '')
      .split(',')
      .map((name) => name.trim())
      .sort()
    expect(allowed.join(', ')).toBe(allow)
  })

  test('429 and 503 carry Retry-After in seconds', async () => {
    for (const code of [429, 503]) {
      const response = await injectApi(app, {
        url: '/api/users',
        token: 'owner-token',
        headers: { prefer: `code=${code}` },
      })
      expect(response.headers['retry-after']).toMatch(/^\d+$/)
    }
  })

  test('the title is the reason phrase and the type is about:blank', async () => {
    const response = await injectApi<Problem>(app, { url: '/api/users/usr_zzzzzzzzzzzzzzzzzzzz', token: 'owner-token' })
    expect(response.body).toMatchObject({ type: 'about:blank', title: 'Not Found' })
  })

  test('an unexpected error is a 500 INTERNAL problem that sends neither the message nor the stack', async () => {
    // A route of Fastify's own (the mock's own routes are under /__mock/), where its error handler answers.
    app.get('/__mock/__test/boom', async () => {
      throw new Error('secret detail of the crash')
    })
    const response = await injectApi<Problem>(app, { url: '/__mock/__test/boom' })
    expectProblem(response, 500, 'INTERNAL')
    expect(response.text).not.toContain('secret detail')
    expect(response.text).not.toMatch(/\bat .+\.(ts|js):\d+/)
  })

  test('the 400 errors name where: in, path, message', async () => {
    const response = await injectApi<Problem>(app, { url: '/api/users?limit=101', token: 'owner-token' })
    expect(response.body.errors).toEqual([{ in: 'query', path: '/limit', message: expect.stringMatching(/\S/) }])
  })
})

describe('CONTRACT §3: the order of the checks', () => {
  let app: FastifyInstance

  beforeEach(async () => {
    ;({ app } = await createMockApp({ users: 5 }))
  })

  afterEach(async () => {
    await app.close()
  })

  test.each([
    [
      'authentication before the body size: a big body without a token',
      401,
      {
        method: 'PATCH',
        url: `/api/users/${VIEWER_ID}`,
        body: BIG_BODY,
        headers: { 'content-type': 'application/json' },
      },
    ],
    [
      'the route before the body size: a big body to an unknown route',
      404,
      {
        method: 'PATCH',
        url: '/api/teams',
        token: 'owner-token',
        body: BIG_BODY,
        headers: { 'content-type': 'application/json' },
      },
    ],
    [
      'the method before the body size: a big body to PATCH /api/users/me',
      405,
      {
        method: 'PATCH',
        url: '/api/users/me',
        token: 'owner-token',
        body: BIG_BODY,
        headers: { 'content-type': 'application/json' },
      },
    ],
    [
      'the method before the body size: a big body to POST /api/users',
      405,
      {
        method: 'POST',
        url: '/api/users',
        token: 'owner-token',
        body: BIG_BODY,
        headers: { 'content-type': 'application/json' },
      },
    ],
    [
      'the method before the content type: PATCH /api/users/me as text/plain',
      405,
      {
        method: 'PATCH',
        url: '/api/users/me',
        token: 'owner-token',
        body: 'x',
        headers: { 'content-type': 'text/plain' },
      },
    ],
    [
      'the body size before the content type',
      413,
      {
        method: 'PATCH',
        url: `/api/users/${VIEWER_ID}`,
        token: 'owner-token',
        body: BIG_BODY,
        headers: { 'content-type': 'text/plain' },
      },
    ],
    [
      'the content type before validation',
      415,
      {
        method: 'PATCH',
        url: `/api/users/${VIEWER_ID}`,
        token: 'owner-token',
        body: '{}',
        headers: { 'content-type': 'text/plain' },
      },
    ],
    [
      'validation before existence',
      400,
      { method: 'PATCH', url: '/api/users/usr_zzzzzzzzzzzzzzzzzzzz', token: 'owner-token', body: {} },
    ],
    [
      'existence before permission',
      404,
      { method: 'DELETE', url: '/api/users/usr_zzzzzzzzzzzzzzzzzzzz', token: 'viewer-token' },
    ],
    [
      'permission before the state rule',
      403,
      { method: 'PATCH', url: `/api/users/${INVITED_ID}`, token: 'viewer-token', body: { status: 'ACTIVE' } },
    ],
  ] as Array<[string, number, ApiRequest]>)('%s: %i', async (_rule, status, request) => {
    expect((await injectApi(app, request)).status).toBe(status)
  })
})

describe('over a real socket', () => {
  let mock: RunningMock

  beforeAll(async () => {
    mock = await startMock({ users: 5 })
  })

  afterAll(async () => {
    await mock.close()
  })

  test.each(['application/json', 'text/plain'])(
    'a real 17 KiB body sent as %s: 413 PAYLOAD_TOO_LARGE as problem+json',
    async (type) => {
      const response = await fetchApi<Problem>(mock.url, {
        method: 'PATCH',
        url: `/api/users/${VIEWER_ID}`,
        token: 'owner-token',
        body: BIG_BODY,
        headers: { 'content-type': type },
      })
      expectProblem(response, 413, 'PAYLOAD_TOO_LARGE')
      const viewer = await fetchApi<{ data: { name: string } }>(mock.url, {
        url: `/api/users/${VIEWER_ID}`,
        token: 'owner-token',
      })
      expect(viewer.body.data.name).toBe(namedUser('viewer-token').name)
    },
  )

  test('a body of exactly 16 KiB is read (and validated): not 413', async () => {
    const name = 'x'.repeat(16 * 1024 - JSON.stringify({ name: '' }).length)
    const body = JSON.stringify({ name })
    expect(Buffer.byteLength(body)).toBe(16 * 1024)
    const response = await fetchApi<Problem>(mock.url, {
      method: 'PATCH',
      url: `/api/users/${VIEWER_ID}`,
      token: 'owner-token',
      body,
      headers: { 'content-type': 'application/json' },
    })
    expectProblem(response, 400, 'VALIDATION_FAILED')
  })

  test('a 401 over the socket is problem+json with WWW-Authenticate', async () => {
    const response = await fetchApi<Problem>(mock.url, { url: '/api/users/me', token: 'no-such-token' })
    expectProblem(response, 401, 'UNAUTHENTICATED')
    expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"')
  })
})
