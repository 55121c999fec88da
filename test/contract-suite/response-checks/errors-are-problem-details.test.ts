import { describe, expect, test } from 'vitest'
import { errorsAreProblemDetails } from '../../../src/contract/checks/errors-are-problem-details.js'
import { aProblem, prepareCheck } from '../../support/exchange-builder.js'

const verify = await prepareCheck(errorsAreProblemDetails)

describe('errors-are-problem-details (CONTRACT §5)', () => {
  test('a problem+json whose status is the HTTP status passes', () => {
    expect(verify({ path: '/api/users/usr_x', status: 404, json: aProblem(404, 'USER_NOT_FOUND') })).toBeUndefined()
  })

  test('an error as application/json fails', () => {
    const draft = {
      path: '/api/users/usr_x',
      status: 404,
      headers: { 'content-type': 'application/json' },
      json: aProblem(404, 'USER_NOT_FOUND'),
    }
    expect(verify(draft)).toBe('Received: application/json\nDocumented: application/problem+json')
  })

  test('an error without Content-Type fails', () => {
    expect(verify({ path: '/api/users/usr_x', status: 500, text: 'oops' })).toBe(
      'Received: no Content-Type\nDocumented: application/problem+json',
    )
  })

  test('a status in the body other than the HTTP status fails', () => {
    const draft = { path: '/api/users/usr_x', status: 404, json: aProblem(404, 'USER_NOT_FOUND', { status: '404' }) }
    expect(verify(draft)).toBe('Received: status "404" in the body\nDocumented: 404')
  })

  test('a problem+json that is no object fails', () => {
    expect(verify({ path: '/api/users/usr_x', status: 404, json: ['Not Found'] })).toBe(
      'Received: ["Not Found"]\nDocumented: a problem object (RFC 9457)',
    )
  })

  test('successes and HEAD answers (no body) are not judged', () => {
    expect(verify({ path: '/api/users/me', status: 200, text: 'ok' })).toBeUndefined()
    const head = {
      method: 'HEAD',
      path: '/api/users/me',
      status: 401,
      headers: { 'content-type': 'application/problem+json' },
    }
    expect(verify(head)).toBeUndefined()
  })
})
