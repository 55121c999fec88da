import type { FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { createMockApp } from '../../src/server/start-mock.js'
import type { ApiExchange, ApiRequest, Problem } from '../support/api-exchange.js'
import { injectApi } from '../support/inject-api.js'
import { namedUser } from '../support/named-users.js'

// CONTRACT §5: every error is application/problem+json with type, title, status, code and detail; `errors`
// on 400 only. The contract suite checks every answer it gets against this mock for it (and the order of
// checks, the 401s, 405s and 413s): here, what it cannot make the mock answer (the simulations' 429 and 503,
// an unexpected error) and the mock's own choices. injectApi also checks each answer against the document.

const VIEWER_ID = namedUser('viewer-token').id

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

describe('errors only the mock answers, as problems of CONTRACT §5', () => {
  let app: FastifyInstance

  beforeEach(async () => {
    ;({ app } = await createMockApp({ users: 5 }))
  })

  afterEach(async () => {
    await app.close()
  })

  const CASES: Array<[rule: string, status: number, code: string, request: ApiRequest]> = [
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

  test('CONTRACT §3 order: the method before the content type (PATCH /api/users/me as text/plain is 405)', async () => {
    const response = await injectApi<Problem>(app, {
      method: 'PATCH',
      url: '/api/users/me',
      token: 'owner-token',
      body: 'x',
      headers: { 'content-type': 'text/plain' },
    })
    expectProblem(response, 405, 'METHOD_NOT_ALLOWED')
  })
})
