import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { MockState } from '../../src/domain/mock-state.js'
import { createMockApp } from '../../src/server/start-mock.js'
import type { Problem } from '../support/api-exchange.js'
import { injectApi } from '../support/inject-api.js'

// A mock shared on a network: with a control token, only its holder may call /__mock/*.

const CONTROL_TOKEN = 'ctl-3f9a1c'

let app: FastifyInstance

beforeAll(async () => {
  ;({ app } = await createMockApp({ users: 3, controlToken: CONTROL_TOKEN }))
})

afterAll(async () => {
  await app.close()
})

const CONTROL_ROUTES = [
  { method: 'GET', url: '/__mock/tokens' },
  { method: 'HEAD', url: '/__mock/tokens' },
  { method: 'POST', url: '/__mock/target' },
  { method: 'POST', url: '/__mock/reset' },
  { method: 'GET', url: '/__mock/state' },
  { method: 'PUT', url: '/__mock/state', body: { organizations: [], users: [] } },
] as const

async function stateText(): Promise<string> {
  const response = await app.inject({ url: '/__mock/state', headers: { authorization: `Bearer ${CONTROL_TOKEN}` } })
  expect(response.statusCode).toBe(200)
  return response.body
}

describe('with --control-token', () => {
  test.each(CONTROL_ROUTES)(
    '$method $url without a token: 401 saying what to send, and nothing changes',
    async (route) => {
      const before = await stateText()
      const response = await injectApi<Problem>(app, { ...route }, { conform: false })
      expect(response.status).toBe(401)
      expect(response.headers['www-authenticate']).toBe('Bearer')
      if (route.method !== 'HEAD') {
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/)
        expect(response.body.detail).toContain('--control-token')
      }
      expect(await stateText()).toBe(before)
    },
  )

  test.each(CONTROL_ROUTES)('$method $url with the owner token of the users API: 401', async (route) => {
    const before = await stateText()
    const response = await injectApi<Problem>(app, { ...route, token: 'owner-token' }, { conform: false })
    expect(response.status).toBe(401)
    expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"')
    expect(await stateText()).toBe(before)
  })

  test('a wrong token of the same length, or with the control token as prefix: 401', async () => {
    for (const token of [CONTROL_TOKEN.replace(/.$/, 'x'), `${CONTROL_TOKEN}x`, CONTROL_TOKEN.slice(0, -1)]) {
      const response = await app.inject({ url: '/__mock/tokens', headers: { authorization: `Bearer ${token}` } })
      expect(response.statusCode, token).toBe(401)
    }
  })

  test('the control token opens every control route, with any case of "Bearer"', async () => {
    const tokens = await app.inject({ url: '/__mock/tokens', headers: { authorization: `bearer ${CONTROL_TOKEN}` } })
    expect(tokens.statusCode).toBe(200)
    expect((tokens.json() as { data: unknown[] }).data.length).toBeGreaterThan(0)
    const reset = await app.inject({
      method: 'POST',
      url: '/__mock/reset',
      headers: { authorization: `Bearer ${CONTROL_TOKEN}` },
    })
    expect(reset.statusCode).toBe(200)
  })

  test('the users API is unchanged: user tokens work, and the control token is no user token', async () => {
    expect((await injectApi(app, { url: '/api/users/me', token: 'owner-token' })).status).toBe(200)
    expect((await injectApi(app, { url: '/api/users/me', token: CONTROL_TOKEN })).status).toBe(401)
  })

  test('the docs stay open', async () => {
    expect((await app.inject({ url: '/docs/json' })).statusCode).toBe(200)
  })
})

describe('PUT /__mock/state with a control token', () => {
  test('a state giving a user the control token is refused, naming the path, and changes nothing', async () => {
    const before = await stateText()
    const state = JSON.parse(before) as MockState
    const index = 2
    state.users[index] = { ...state.users[index]!, token: CONTROL_TOKEN }
    const response = await app.inject({
      method: 'PUT',
      url: '/__mock/state',
      headers: { authorization: `Bearer ${CONTROL_TOKEN}` },
      payload: state,
    })
    expect(response.statusCode).toBe(400)
    expect((response.json() as Problem).detail).toContain(`/users/${index}/token`)
    expect(await stateText()).toBe(before)
    expect((await injectApi(app, { url: '/api/users/me', token: CONTROL_TOKEN })).status).toBe(401)
  })
})

describe('choosing a control token', () => {
  test('the token of a user of the mock is refused at start', async () => {
    await expect(createMockApp({ users: 0, controlToken: 'viewer-token' })).rejects.toThrow(
      /give a user the control token as their token.*\/users\/\d+\/token/,
    )
  })

  test('an empty one is refused at start', async () => {
    await expect(createMockApp({ users: 0, controlToken: ' ' })).rejects.toThrow(/must not be empty/)
  })

  test('without one, the control routes are open (the default, on 127.0.0.1)', async () => {
    const { app: open } = await createMockApp({ users: 0 })
    expect((await open.inject({ url: '/__mock/tokens' })).statusCode).toBe(200)
    await open.close()
  })
})
