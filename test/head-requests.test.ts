import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createMockApp, startMock, type RunningMock } from '../src/server/start-mock.js'
import { fetchApi } from './support/fetch-api.js'
import { injectApi } from './support/inject-api.js'
import { namedUser } from './support/named-users.js'

// HEAD on the GET routes answers as GET would, without a body (RFC 9110 §9.3.2). Nothing here writes.

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
