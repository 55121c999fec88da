import { describe, expect, test } from 'vitest'
import { statusIsDocumented } from '../../../src/contract/checks/status-is-documented.js'
import { buildExchange, checkContext, loadOperations, prepareCheck } from '../../support/exchange-builder.js'

const verify = await prepareCheck(statusIsDocumented)
const operations = await loadOperations()

describe('status-is-documented on an operation of the document', () => {
  test.each([
    ['GET', '/api/users/me', 200],
    ['GET', '/api/users?limit=5', 400],
    ['PATCH', '/api/users/usr_x', 409],
    ['DELETE', '/api/users/usr_x', 204],
    ['PATCH', '/api/users/me', 405],
  ])('%s %s answering a documented %i passes', (method, path, status) => {
    expect(verify({ method, path, status })).toBeUndefined()
  })

  test('a status the operation does not document fails, naming the operation and what it documents', () => {
    const message = verify({ path: '/api/users/me', status: 404 })
    expect(message).toBe('Received: 404 from getCurrentUser\nDocumented: 200, 401, 413, 429, 500, 503')
  })

  test('a 200 to a DELETE that documents 204 fails', () => {
    expect(verify({ method: 'DELETE', path: '/api/users/usr_x', status: 200 })).toContain(
      'Received: 200 from deleteUser\nDocumented: 204, 400, 401, 403, 404, 413, 429, 500, 503',
    )
  })

  test('a 4XX range and a default of the document count as documented', () => {
    const me = operations.find((operation) => operation.operationId === 'getCurrentUser')
    const ok = me?.responses['200']
    if (!me || !ok) throw new Error('getCurrentUser 200 is not in the document')
    const ranged = { ...me, responses: { '200': ok, '4XX': { description: 'Any client error' } } }
    const withDefault = { ...me, responses: { default: { description: 'Anything' } } }
    const exchangeOf = (status: number) => buildExchange(operations, { path: '/api/users/me', status })
    expect(statusIsDocumented.verify({ ...exchangeOf(418), operation: ranged }, checkContext())).toBeUndefined()
    expect(statusIsDocumented.verify({ ...exchangeOf(500), operation: ranged }, checkContext())).toContain(
      'Documented: 200, 4XX',
    )
    expect(statusIsDocumented.verify({ ...exchangeOf(500), operation: withDefault }, checkContext())).toBeUndefined()
  })
})

describe('status-is-documented on a route the document does not have', () => {
  test.each([
    ['POST', '/api/users', 405],
    ['PUT', '/api/users/usr_x', 405],
    ['GET', '/api/nothing-here', 404],
    ['GET', '/api/users/', 404],
    ['GET', '/api/nothing-here', 401],
  ])('%s %s answering %i passes (CONTRACT §3, §4)', (method, path, status) => {
    expect(verify({ method, path, status })).toBeUndefined()
  })

  test('a success to an undocumented method fails, naming the request and the statuses it may answer', () => {
    const message = verify({ method: 'POST', path: '/api/users', status: 201 })
    expect(message).toContain('Received: 201 from POST /api/users, which the document does not have')
    expect(message).toContain('Documented: 401, 404 (unknown route) or 405')
  })

  test.each([
    ['GET', '/api/nothing-here', 200],
    ['GET', '/api/nothing-here', 500],
    ['PUT', '/api/users/usr_x', 400],
  ])('%s %s answering %i fails', (method, path, status) => {
    expect(verify({ method, path, status })).toContain(`Received: ${status} from ${method} ${path}`)
  })

  test('HEAD and OPTIONS are HTTP’s own methods and are not judged by the document', () => {
    expect(verify({ method: 'HEAD', path: '/api/users/me', status: 200 })).toBeUndefined()
    expect(verify({ method: 'OPTIONS', path: '/api/users', status: 204 })).toBeUndefined()
  })
})
