import { describe, expect, test } from 'vitest'
import { contentTypeIsDocumented } from '../../../src/contract/checks/content-type-is-documented.js'
import { aProblem, aUser, prepareCheck } from '../../support/exchange-builder.js'

const verify = await prepareCheck(contentTypeIsDocumented)

describe('content-type-is-documented: media types', () => {
  test('application/json with a charset on a 200 of getCurrentUser passes', () => {
    const draft = { path: '/api/users/me', status: 200, json: { data: aUser() } }
    expect(verify(draft)).toBeUndefined()
    expect(verify(draft, 'core')).toBeUndefined()
  })

  test('an undocumented media type fails, naming what came and what the document gives', () => {
    const message = verify({
      path: '/api/users/me',
      status: 200,
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
      text: '<p>hi</p>',
    })
    expect(message).toBe('Received: text/html for getCurrentUser 200\nDocumented: application/json')
  })

  test('a 200 without Content-Type nor body fails', () => {
    expect(verify({ path: '/api/users/me', status: 200 })).toBe(
      'Received: no Content-Type and no body for getCurrentUser 200\nDocumented: application/json',
    )
  })

  test('an error as application/json fails under all, and passes under core (problem+json is profile)', () => {
    const draft = {
      path: '/api/users/me',
      status: 401,
      headers: { 'content-type': 'application/json' },
      json: aProblem(401, 'UNAUTHENTICATED'),
    }
    expect(verify(draft)).toBe(
      'Received: application/json for getCurrentUser 401\nDocumented: application/problem+json',
    )
    expect(verify(draft, 'core')).toBeUndefined()
  })

  test('a 200 as text/plain fails under core too', () => {
    const draft = { path: '/api/users/me', status: 200, headers: { 'content-type': 'text/plain' }, text: 'ok' }
    expect(verify(draft, 'core')).toContain('Received: text/plain for getCurrentUser 200')
  })
})

describe('content-type-is-documented: responses without content', () => {
  test('a 204 of deleteUser with an empty body passes', () => {
    expect(verify({ method: 'DELETE', path: '/api/users/usr_x', status: 204 })).toBeUndefined()
  })

  test('a 204 with a body fails, showing the body', () => {
    const message = verify({ method: 'DELETE', path: '/api/users/usr_x', status: 204, json: { deleted: true } })
    expect(message).toBe(
      'Received: a body (application/json): "{\\"deleted\\":true}"\nDocumented: no body for deleteUser 204',
    )
  })
})

describe('content-type-is-documented: JSON parses', () => {
  test('a body whose Content-Type says JSON but that does not parse fails', () => {
    const message = verify({
      path: '/api/users/me',
      status: 200,
      headers: { 'content-type': 'application/json' },
      text: '{"data": {',
    })
    expect(message).toBe('Received: a body that is not JSON: "{\\"data\\": {"\nDocumented: application/json (JSON)')
  })

  test('also on a route the document does not have, and under core', () => {
    const draft = {
      path: '/api/nothing-here',
      status: 404,
      headers: { 'content-type': 'application/problem+json' },
      text: 'Not Found',
    }
    expect(verify(draft, 'core')).toContain('Received: a body that is not JSON: "Not Found"')
  })

  test('HEAD answers carry no body and pass', () => {
    const draft = {
      method: 'HEAD',
      path: '/api/users/me',
      status: 200,
      headers: { 'content-type': 'application/json' },
    }
    expect(verify(draft)).toBeUndefined()
  })
})
