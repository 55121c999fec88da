import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { RESPONSE_CHECKS } from '../../../src/contract/checks/index.js'
import { createExchangeChecker } from '../../../src/contract/client/check-exchange.js'
import { ContractClient, type SendOptions } from '../../../src/contract/client/contract-client.js'
import { loadSpec } from '../../../src/spec/load-spec.js'
import { startMock, type RunningMock } from '../../../src/server/start-mock.js'

// The checks must not cry wolf: the mock keeps the contract, so none of them may fire on its answers.

let mock: RunningMock

beforeAll(async () => {
  mock = await startMock({ users: 5, disposable: 1 })
})

afterAll(async () => {
  await mock.close()
})

const OWNER = 'owner-token'
const REQUESTS: Array<[string, number, SendOptions]> = [
  ['me', 200, { path: '/api/users/me', token: OWNER }],
  ['the list', 200, { path: '/api/users?limit=2&page=2', token: OWNER }],
  ['a page past the end', 200, { path: '/api/users?page=999', token: OWNER }],
  ['a bad limit (400)', 400, { path: '/api/users?limit=0', token: OWNER }],
  ['a bot listing (403)', 403, { path: '/api/users', token: 'bot-token' }],
  ['an unknown user (404)', 404, { path: '/api/users/usr_zzzzzzzzzzzzzzzzzzzz', token: OWNER }],
  [
    'a PATCH with an unknown key (400)',
    400,
    { method: 'PATCH', path: '/api/users/usr_x', token: OWNER, json: { x: 1 } },
  ],
  [
    'a PATCH as text (415)',
    415,
    { method: 'PATCH', path: '/api/users/usr_x', token: OWNER, body: 'x', headers: { 'content-type': 'text/plain' } },
  ],
  ['a PATCH of me (405)', 405, { method: 'PATCH', path: '/api/users/me', token: OWNER, json: { name: 'x' } }],
  ['a DELETE of me (405)', 405, { method: 'DELETE', path: '/api/users/me', token: OWNER }],
  ['a POST of the list (405)', 405, { method: 'POST', path: '/api/users', token: OWNER, json: {} }],
  ['a PUT of a user (405)', 405, { method: 'PUT', path: '/api/users/usr_x', token: OWNER, json: {} }],
  ['an unknown route (404)', 404, { path: '/api/nothing-here', token: OWNER }],
  ['no token (401)', 401, { path: '/api/users/me' }],
  ['an unknown token (401)', 401, { path: '/api/users/me', token: 'nobody' }],
  ['another scheme (401)', 401, { path: '/api/users/me', headers: { authorization: 'Basic eDp5' } }],
  ['HEAD of me', 200, { method: 'HEAD', path: '/api/users/me', token: OWNER }],
  ['HEAD without a token', 401, { method: 'HEAD', path: '/api/users/me' }],
  ['OPTIONS of the list', 204, { method: 'OPTIONS', path: '/api/users' }],
  ['a 429 asked for', 429, { path: '/api/users', token: OWNER, headers: { prefer: 'code=429' } }],
  ['a 503 asked for', 503, { path: '/api/users/me', token: OWNER, headers: { prefer: 'code=503' } }],
]

describe.each(['all', 'core'] as const)('the mock under the layer %s', (layer) => {
  test.each(REQUESTS)('%s: a %i that keeps every response check', async (_case, status, request) => {
    const client = new ContractClient({ baseUrl: mock.url, spec: await loadSpec(), checks: RESPONSE_CHECKS, layer })
    const exchange = await client.send(request)
    expect(exchange.response.status).toBe(status)
    expect(createExchangeChecker(RESPONSE_CHECKS, layer)(exchange)).toEqual([])
  })
})

test('a rename and a delete of a disposable user keep every response check', async () => {
  const client = new ContractClient({ baseUrl: mock.url, spec: await loadSpec(), checks: RESPONSE_CHECKS })
  const [user] = mock.target.disposable
  if (!user) throw new Error('the mock made no disposable user')
  const renamed = await client.send({
    method: 'PATCH',
    path: `/api/users/${user.id}`,
    token: OWNER,
    json: { name: 'Ada' },
  })
  expect(renamed.response.status).toBe(200)
  const deleted = await client.send({ method: 'DELETE', path: `/api/users/${user.id}`, token: OWNER })
  expect(deleted.response.status).toBe(204)
})
