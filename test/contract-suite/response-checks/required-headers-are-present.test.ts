import { describe, expect, test } from 'vitest'
import { requiredHeadersArePresent } from '../../../src/contract/checks/required-headers-are-present.js'
import { aProblem, buildExchange, checkContext, loadOperations, prepareCheck } from '../../support/exchange-builder.js'

const verify = await prepareCheck(requiredHeadersArePresent)
const operations = await loadOperations()
const unauthorized = (headers: Record<string, string>) => ({
  path: '/api/users/me',
  status: 401,
  headers,
  json: aProblem(401, 'UNAUTHENTICATED'),
})

describe('required-headers-are-present', () => {
  test('a 401 with WWW-Authenticate: Bearer passes', () => {
    expect(verify(unauthorized({ 'WWW-Authenticate': 'Bearer' }))).toBeUndefined()
  })

  test('a 401 without WWW-Authenticate fails under all and core (the header is core)', () => {
    const expected =
      'Received: no WWW-Authenticate header on getCurrentUser 401\nDocumented: WWW-Authenticate (required)'
    expect(verify(unauthorized({}))).toBe(expected)
    expect(verify(unauthorized({}), 'core')).toBe(expected)
  })

  test('a header against its schema fails, naming the value, the rule and the schema', () => {
    const message = verify(unauthorized({ 'www-authenticate': 'Basic realm="users"' }))
    expect(message).toContain(
      'Received: WWW-Authenticate: Basic realm="users" on getCurrentUser 401 (must match pattern',
    )
    expect(message).toContain('Documented: WWW-Authenticate of the schema {"type":"string","pattern":"^Bearer( |$)"')
  })

  test('a 405 of updateCurrentUser needs Allow', () => {
    const draft = { method: 'PATCH', path: '/api/users/me', status: 405, json: aProblem(405, 'METHOD_NOT_ALLOWED') }
    expect(verify({ ...draft, headers: { allow: 'GET' } })).toBeUndefined()
    expect(verify(draft)).toContain('Received: no Allow header on updateCurrentUser 405')
  })

  test('Retry-After of a 429 is profile: required under all, not under core', () => {
    const draft = { path: '/api/users', status: 429, json: aProblem(429, 'RATE_LIMITED') }
    expect(verify({ ...draft, headers: { 'retry-after': '1' } })).toBeUndefined()
    expect(verify(draft)).toContain('Received: no Retry-After header on listUsers 429')
    expect(verify(draft, 'core')).toBeUndefined()
    expect(verify({ ...draft, headers: { 'retry-after': 'soon' } })).toContain('Received: Retry-After: soon')
  })

  test('a header documented as an integer is judged by the number it spells', () => {
    const list = operations.find((operation) => operation.operationId === 'listUsers')
    const tooMany = list?.responses['429']
    if (!list || !tooMany) throw new Error('listUsers 429 is not in the document')
    const header = { required: true, schema: { type: 'integer', minimum: 0 } } as const
    const operation = { ...list, responses: { '429': { ...tooMany, headers: { 'Retry-After': header } } } }
    const exchangeWith = (value: string) => ({
      ...buildExchange(operations, { path: '/api/users', status: 429, headers: { 'retry-after': value } }),
      operation,
    })
    expect(requiredHeadersArePresent.verify(exchangeWith('5'), checkContext())).toBeUndefined()
    expect(requiredHeadersArePresent.verify(exchangeWith('-1'), checkContext())).toContain('must be >= 0')
    expect(requiredHeadersArePresent.verify(exchangeWith('later'), checkContext())).toContain('must be integer')
  })

  test('responses without required headers, undocumented statuses and unknown routes pass', () => {
    expect(verify({ path: '/api/users/me', status: 200 })).toBeUndefined()
    expect(verify({ path: '/api/users/me', status: 418 })).toBeUndefined()
    expect(verify({ method: 'POST', path: '/api/users', status: 405 })).toBeUndefined()
  })
})
