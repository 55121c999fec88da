import type { FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { createMockApp } from '../../src/server/start-mock.js'
import type { Problem, UserEnvelope } from '../support/api-exchange.js'
import { injectApi } from '../support/inject-api.js'
import { namedUser } from '../support/named-users.js'

// CONTRACT §2: the caller comes from the Bearer token alone. What the contract suite checks of it against this
// mock (contract-tests/authentication, order-of-checks, errors-and-limits) is not checked again here: only
// what it cannot send (an INVITED user's token, a suspended admin, the fixture's own users, the bare /api
// path, a bad URL without a token).

let app: FastifyInstance

beforeEach(async () => {
  ;({ app } = await createMockApp({ users: 5 }))
})

afterEach(async () => {
  await app.close()
})

describe('a non-empty Bearer token that is refused: 401, WWW-Authenticate: Bearer error="invalid_token"', () => {
  test.each([
    ['the token of an INVITED user', 'invited-token'],
    ['the token of a SUSPENDED admin', 'suspended-admin-token'],
  ])('%s: 401 with error="invalid_token"', async (_case, token) => {
    const response = await injectApi<Problem>(app, { url: '/api/users/me', token })
    expect(response.status).toBe(401)
    expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"')
    expect(response.body.code).toBe('UNAUTHENTICATED')
  })
})

describe('identity comes from the token alone', () => {
  test('each token is its own user: /me answers the user of the token', async () => {
    for (const token of ['owner-token', 'admin-token', 'viewer-token', 'bot-token', 'outsider-token']) {
      const me = await injectApi<UserEnvelope>(app, { url: '/api/users/me', token })
      expect(me.body.data).toMatchObject({ id: namedUser(token).id, organizationId: namedUser(token).organizationId })
    }
  })
})

describe('unknown routes under /api', () => {
  test('/api itself with a valid token: 404 NOT_FOUND', async () => {
    const response = await injectApi<Problem>(app, { url: '/api', token: 'owner-token' })
    expect(response.status).toBe(404)
    expect(response.body.code).toBe('NOT_FOUND')
  })
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
