import { describe, expect, test } from 'vitest'
import { problemCodeMatchesStatus } from '../../../src/contract/checks/problem-code-matches-status.js'
import { aProblem, prepareCheck } from '../../support/exchange-builder.js'

const verify = await prepareCheck(problemCodeMatchesStatus)
const problemOn = (path: string, status: number, code: string, changes: Record<string, unknown> = {}) => ({
  method: 'PATCH',
  path,
  status,
  json: aProblem(status, code, changes),
})

describe('problem-code-matches-status: the table of CONTRACT §5', () => {
  test.each([
    [400, 'VALIDATION_FAILED'],
    [401, 'UNAUTHENTICATED'],
    [403, 'FORBIDDEN'],
    [404, 'USER_NOT_FOUND'],
    [405, 'METHOD_NOT_ALLOWED'],
    [409, 'INVALID_TRANSITION'],
    [413, 'PAYLOAD_TOO_LARGE'],
    [415, 'UNSUPPORTED_MEDIA_TYPE'],
    [429, 'RATE_LIMITED'],
    [500, 'INTERNAL'],
    [503, 'SERVICE_UNAVAILABLE'],
  ])('%i with %s passes', (status, code) => {
    expect(verify(problemOn('/api/users/usr_x', status, code))).toBeUndefined()
  })

  test('an unknown route is a 404 NOT_FOUND, an unknown user a 404 USER_NOT_FOUND', () => {
    expect(verify({ path: '/api/nothing-here', status: 404, json: aProblem(404, 'NOT_FOUND') })).toBeUndefined()
    expect(verify({ path: '/api/nothing-here', status: 404, json: aProblem(404, 'USER_NOT_FOUND') })).toBe(
      'Received: code "USER_NOT_FOUND" on a 404\nDocumented: NOT_FOUND',
    )
    expect(verify(problemOn('/api/users/usr_x', 404, 'NOT_FOUND'))).toBe(
      'Received: code "NOT_FOUND" on a 404\nDocumented: USER_NOT_FOUND',
    )
  })

  test('the code of another status fails', () => {
    expect(verify(problemOn('/api/users/usr_x', 403, 'USER_NOT_FOUND'))).toBe(
      'Received: code "USER_NOT_FOUND" on a 403\nDocumented: FORBIDDEN',
    )
    expect(verify(problemOn('/api/users/usr_x', 401, 'unauthenticated'))).toContain('Documented: UNAUTHENTICATED')
  })

  test.each([418, 422, 502])('a %i, outside the table, fails whatever its code', (status) => {
    const message = verify(problemOn('/api/users/usr_x', status, 'VALIDATION_FAILED'))
    expect(message).toContain(`Received: ${status} (code "VALIDATION_FAILED")`)
    expect(message).toContain(
      'Documented: the statuses of docs/contract.md §5: 400, 401, 403, 404, 405, 409, 413, 415, 429, 500, 503',
    )
  })
})

describe('problem-code-matches-status: detail, title, errors', () => {
  test.each([
    ['a missing detail', { detail: undefined }, 'Received: detail nothing\nDocumented: detail, a non-empty string'],
    ['an empty detail', { detail: ' ' }, 'Received: detail " "\nDocumented: detail, a non-empty string'],
    ['a title that is no string', { title: 403 }, 'Received: title 403\nDocumented: title, a string'],
    ['errors on a 403', { errors: [] }, 'Received: errors [] on a 403\nDocumented: errors on a 400 only'],
  ])('%s fails', (_case, changes, expected) => {
    expect(verify(problemOn('/api/users/usr_x', 403, 'FORBIDDEN', changes))).toBe(expected)
  })

  const documented =
    'Documented: errors, a non-empty array of { in: body|query|path|header, path: JSON pointer, message }'

  test.each([
    ['missing', { errors: undefined }, 'Received: errors nothing'],
    ['empty', { errors: [] }, 'Received: errors []'],
    ['an object', { errors: { in: 'body' } }, 'Received: errors {"in":"body"}'],
    [
      'an unknown place',
      { errors: [{ in: 'cookie', path: '/a', message: 'm' }] },
      'Received: errors item {"in":"cookie"',
    ],
    ['a path that is no pointer', { errors: [{ in: 'query', path: 'limit', message: 'm' }] }, 'Received: errors item'],
    ['an empty message', { errors: [{ in: 'query', path: '/limit', message: '' }] }, 'Received: errors item'],
    ['an item that is no object', { errors: ['bad limit'] }, 'Received: errors item "bad limit"'],
  ])('errors of a 400 %s fails', (_case, changes, received) => {
    const message = verify(problemOn('/api/users/usr_x', 400, 'VALIDATION_FAILED', changes))
    expect(message).toContain(received)
    expect(message).toContain(documented)
  })

  test('errors of a 400 on the whole body (path "") pass', () => {
    const changes = { errors: [{ in: 'body', path: '', message: 'must be an object' }] }
    expect(verify(problemOn('/api/users/usr_x', 400, 'VALIDATION_FAILED', changes))).toBeUndefined()
  })

  test('successes, bodies that are no object and HEAD answers are not judged', () => {
    expect(verify({ path: '/api/users/me', status: 200, json: { code: 'X' } })).toBeUndefined()
    expect(verify({ path: '/api/users/me', status: 418, text: 'teapot' })).toBeUndefined()
    expect(verify({ method: 'HEAD', path: '/api/users/me', status: 418 })).toBeUndefined()
  })
})
