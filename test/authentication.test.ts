import type { FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { createMockApp } from '../src/server/start-mock.js'
import type { Problem, UserEnvelope } from './support/api-exchange.js'
import { injectApi } from './support/inject-api.js'
import { namedUser } from './support/named-users.js'

// CONTRACT §2: the caller comes from the Bearer token alone.

let app: FastifyInstance

beforeEach(async () => {
  ;({ app } = await createMockApp({ users: 5 }))
})

afterEach(async () => {
  await app.close()
})

const VIEWER_ID = namedUser('viewer-token').id

describe('requests without a usable Bearer token: 401, WWW-Authenticate: Bearer without an error', () => {
  test.each([
    ['no Authorization header', {}],
    ['the Basic scheme', { authorization: 'Basic b3duZXI6c2VjcmV0' }],
    ['an empty Bearer token', { authorization: 'Bearer ' }],
    ['the bare word Bearer', { authorization: 'Bearer' }],
  ])('%s: 401 with WWW-Authenticate: Bearer exactly', async (_case, headers: Record<string, string>) => {
    const response = await injectApi<Problem>(app, { url: '/api/users/me', headers })
    expect(response.status).toBe(401)
    expect(response.headers['www-authenticate']).toBe('Bearer')
    expect(response.body.code).toBe('UNAUTHENTICATED')
  })

  test.each([
    ['GET', '/api/users'],
    ['GET', '/api/users/me'],
    ['GET', `/api/users/${VIEWER_ID}`],
    ['PATCH', `/api/users/${VIEWER_ID}`],
    ['DELETE', `/api/users/${VIEWER_ID}`],
    ['PATCH', '/api/users/me'],
    ['DELETE', '/api/users/me'],
    ['POST', '/api/users'],
  ])('%s %s without a token: 401, and nothing changes', async (method, url) => {
    const body = method === 'PATCH' ? { name: 'Nobody' } : undefined
    const response = await injectApi<Problem>(app, { method, url, body })
    expect(response.status).toBe(401)
    expect(response.headers['www-authenticate']).toBe('Bearer')
    const viewer = await injectApi<UserEnvelope>(app, { url: `/api/users/${VIEWER_ID}`, token: 'owner-token' })
    expect(viewer.body.data.name).toBe(namedUser('viewer-token').name)
  })
})

describe('a non-empty Bearer token that is refused: 401, WWW-Authenticate: Bearer error="invalid_token"', () => {
  test.each([
    ['an unknown token', 'no-such-token'],
    ['the token of a SUSPENDED user', 'suspended-token'],
    ['the token of an INVITED user', 'invited-token'],
    ['the token of a SUSPENDED admin', 'suspended-admin-token'],
  ])('%s: 401 with error="invalid_token"', async (_case, token) => {
    const response = await injectApi<Problem>(app, { url: '/api/users/me', token })
    expect(response.status).toBe(401)
    expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"')
    expect(response.body.code).toBe('UNAUTHENTICATED')
  })

  test('a suspended user made ACTIVE again by an owner can call again with the same token', async () => {
    const suspended = namedUser('suspended-token')
    expect((await injectApi(app, { url: '/api/users/me', token: 'suspended-token' })).status).toBe(401)
    const reactivate = await injectApi(app, {
      method: 'PATCH',
      url: `/api/users/${suspended.id}`,
      token: 'owner-token',
      body: { status: 'ACTIVE' },
    })
    expect(reactivate.status).toBe(200)
    const me = await injectApi<UserEnvelope>(app, { url: '/api/users/me', token: 'suspended-token' })
    expect(me.status).toBe(200)
    expect(me.body.data.id).toBe(suspended.id)
  })

  test('an ACTIVE user suspended by an owner loses access at once, and keeps the token', async () => {
    expect((await injectApi(app, { url: '/api/users/me', token: 'viewer-token' })).status).toBe(200)
    await injectApi(app, {
      method: 'PATCH',
      url: `/api/users/${VIEWER_ID}`,
      token: 'owner-token',
      body: { status: 'SUSPENDED' },
    })
    const refused = await injectApi(app, { url: '/api/users/me', token: 'viewer-token' })
    expect(refused.status).toBe(401)
    expect(refused.headers['www-authenticate']).toBe('Bearer error="invalid_token"')
  })

  test("a deleted user's token answers 401 at once", async () => {
    expect((await injectApi(app, { url: '/api/users/me', token: 'viewer-token' })).status).toBe(200)
    const deleted = await injectApi(app, { method: 'DELETE', url: `/api/users/${VIEWER_ID}`, token: 'owner-token' })
    expect(deleted.status).toBe(204)
    const refused = await injectApi(app, { url: '/api/users/me', token: 'viewer-token' })
    expect(refused.status).toBe(401)
    expect(refused.headers['www-authenticate']).toBe('Bearer error="invalid_token"')
  })
})

describe('identity comes from the token alone', () => {
  test('the Bearer scheme is case-insensitive (RFC 7235)', async () => {
    const response = await injectApi<UserEnvelope>(app, {
      url: '/api/users/me',
      headers: { authorization: 'bearer admin-token' },
    })
    expect(response.status).toBe(200)
    expect(response.body.data.id).toBe(namedUser('admin-token').id)
  })

  test('each token is its own user: /me answers the user of the token', async () => {
    for (const token of ['owner-token', 'admin-token', 'viewer-token', 'bot-token', 'outsider-token']) {
      const me = await injectApi<UserEnvelope>(app, { url: '/api/users/me', token })
      expect(me.body.data).toMatchObject({ id: namedUser(token).id, organizationId: namedUser(token).organizationId })
    }
  })
})

describe('unknown routes under /api: authentication first', () => {
  test('an unknown route under /api without a token: 401', async () => {
    const response = await injectApi<Problem>(app, { url: '/api/teams' })
    expect(response.status).toBe(401)
    expect(response.headers['www-authenticate']).toBe('Bearer')
  })

  test('an unknown route under /api with a refused token: 401 with error="invalid_token"', async () => {
    const response = await injectApi<Problem>(app, { url: '/api/teams', token: 'no-such-token' })
    expect(response.status).toBe(401)
    expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"')
  })

  test.each(['/api/teams', '/api', '/api/users/', '/api/users/me/extra'])(
    '%s with a valid token: 404 NOT_FOUND',
    async (url) => {
      const response = await injectApi<Problem>(app, { url, token: 'owner-token' })
      expect(response.status).toBe(404)
      expect(response.body.code).toBe('NOT_FOUND')
    },
  )
})

describe('authentication comes before a bad URL (CONTRACT §3 order)', () => {
  test.each([
    ['an id that is not validly percent-encoded', '/api/users/%FF'],
    ['an id longer than any id', `/api/users/${'x'.repeat(5000)}`],
  ])('%s: 401 without a token, 400 with one', async (_case, url) => {
    const anonymous = await injectApi<Problem>(app, { url })
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers['www-authenticate']).toBe('Bearer')
    const refused = await injectApi<Problem>(app, { url, token: 'tok_unknown' })
    expect(refused.status).toBe(401)
    const authenticated = await injectApi<Problem>(app, { url, token: 'owner-token' })
    expect(authenticated.status).toBe(400)
    expect(authenticated.body.errors?.[0]?.in).toBe('path')
  })
})

describe('only spaces and tabs surround a token (RFC 9110)', () => {
  test('a token followed by a no-break space is another token: 401', async () => {
    const response = await injectApi<Problem>(app, {
      url: '/api/users/me',
      headers: { authorization: 'Bearer owner-token\u00a0' },
    })
    expect(response.status).toBe(401)
    expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"')
  })

  test('spaces and tabs around it are ignored', async () => {
    const response = await injectApi(app, {
      url: '/api/users/me',
      headers: { authorization: ' Bearer \towner-token\t ' },
    })
    expect(response.status).toBe(200)
  })
})
