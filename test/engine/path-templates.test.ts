import { describe, expect, test } from 'vitest'
import { createOperationMatcher } from '../../src/contract/client/match-operation.js'
import { createRouter } from '../../src/engine/route-request.js'
import { AppError } from '../../src/errors.js'
import { DEFAULT_OPERATIONS } from '../../src/spec/default-operations.js'
import { loadSpec } from '../../src/spec/load-spec.js'
import { listOperations } from '../../src/spec/operations.js'
import { createPathMatcher, decodeSegments, MALFORMED } from '../../src/spec/path-templates.js'

describe('the path rule the router and the suite share', () => {
  const findPath = createPathMatcher(['/api/users/{id}', '/api/users', '/api/users/me', '/api/users'])

  test('a literal wins over a parameter; a parameter takes any non-empty segment, a malformed one too', () => {
    expect(findPath(decodeSegments('/api/users/me'))?.template.path).toBe('/api/users/me')
    expect(findPath(decodeSegments('/api/users/usr_1'))).toEqual({
      template: { path: '/api/users/{id}', segments: ['api', 'users', '{id}'] },
      params: { id: 'usr_1' },
    })
    expect(findPath(decodeSegments('/api/users/%FF'))?.params).toEqual({ id: MALFORMED })
    expect(findPath(decodeSegments('/api/users/m%65'))?.template.path).toBe('/api/users/me')
  })

  test('an empty segment is no parameter, and a path of another length is no route', () => {
    expect(findPath(decodeSegments('/api/users/'))).toBeUndefined()
    expect(findPath(decodeSegments('/api/users/usr_1/'))).toBeUndefined()
    expect(findPath(decodeSegments('/api'))).toBeUndefined()
    expect(findPath(decodeSegments('/api/people'))).toBeUndefined()
  })

  test('the suite finds the operations the contract names, as written here by hand', async () => {
    const operationOf = createOperationMatcher(listOperations((await loadSpec()).dereferenced))
    const expected: Array<[string, string, string | undefined]> = [
      ['GET', '/api/users', 'listUsers'],
      ['HEAD', '/api/users', 'listUsers'],
      ['GET', '/api/users/me', 'getCurrentUser'],
      ['PATCH', '/api/users/me', 'updateCurrentUser'],
      ['DELETE', '/api/users/me', 'deleteCurrentUser'],
      ['GET', '/api/users/usr_1', 'getUser'],
      ['PATCH', '/api/users/usr_1', 'updateUser'],
      ['DELETE', '/api/users/usr_1', 'deleteUser'],
      // As sent: a backend that decodes `m%65` to `me` chooses so itself.
      ['GET', '/api/users/m%65', 'getUser'],
      ['POST', '/api/users', undefined],
      ['GET', '/api/users/', undefined],
      ['GET', '/api/users/me/x', undefined],
      ['GET', '/api', undefined],
    ]
    for (const [method, path, operationId] of expected)
      expect(operationOf(method, path)?.operationId, `${method} ${path}`).toBe(operationId)
  })

  test('the suite finds the operation the mock routes to, for every method on every path', async () => {
    const operationOf = createOperationMatcher(listOperations((await loadSpec()).dereferenced))
    const route = createRouter(DEFAULT_OPERATIONS)
    const paths = ['/api/users', '/api/users/me', '/api/users/usr_1', '/api/users/', '/api', '/api/users/me/x']
    for (const path of paths) {
      for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']) {
        const found = operationOf(method, path)
        try {
          expect(found?.operationId, `${method} ${path}`).toBe(
            route(method, decodeSegments(path)).operation.operationId,
          )
        } catch (error) {
          if (!(error instanceof AppError)) throw error
          // A 404 or a 405: no operation, or one the document gives no success (PATCH on /api/users/me).
          expect(found?.succeeds ?? false, `${method} ${path}`).toBe(false)
        }
      }
    }
  })
})
