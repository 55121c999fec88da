import { describe, expect, test } from 'vitest'
import { successIsADataEnvelope } from '../../../src/contract/checks/success-is-a-data-envelope.js'
import { aUser, prepareCheck } from '../../support/exchange-builder.js'

const verify = await prepareCheck(successIsADataEnvelope)
const meta = { page: 1, limit: 20, total: 1, totalPages: 1 }

describe('success-is-a-data-envelope (CONTRACT §4)', () => {
  test('{ data } on /api/users/me passes under all and core', () => {
    const draft = { path: '/api/users/me', status: 200, json: { data: aUser() } }
    expect(verify(draft)).toBeUndefined()
    expect(verify(draft, 'core')).toBeUndefined()
  })

  test('a bare user on /api/users/me fails under core, naming the keys received', () => {
    const message = verify({ path: '/api/users/me', status: 200, json: aUser() }, 'core')
    expect(message).toContain('Received: an object with the keys ["id","email","name"')
    expect(message).toContain('\nDocumented: { "data": … }')
  })

  test.each([
    ['an array', [aUser()], 'Received: [{"id":"usr_acmeownerqqqqqqqqqqq"'],
    ['null', null, 'Received: null\n'],
  ])('%s on /api/users/me fails', (_case, json, received) => {
    const message = verify({ path: '/api/users/me', status: 200, json }, 'core')
    expect(message).toContain(received)
    expect(message).toContain('Documented: { "data": … }')
  })

  test('a 200 of /api/users/me with no body fails', () => {
    expect(verify({ path: '/api/users/me', status: 200 }, 'core')).toBe('Received: ""\nDocumented: { "data": … }')
  })

  test('other paths are judged under all only (the envelope is core for /me alone)', () => {
    const bare = { path: '/api/users/usr_x', status: 200, json: aUser() }
    expect(verify(bare)).toContain('Received: an object with the keys')
    expect(verify(bare, 'core')).toBeUndefined()
  })

  test('the list needs meta under all, not under core', () => {
    expect(verify({ path: '/api/users?page=2', status: 200, json: { data: [], meta } })).toBeUndefined()
    const withoutMeta = { path: '/api/users', status: 200, json: { data: [] } }
    expect(verify(withoutMeta)).toBe(
      'Received: meta nothing\nDocumented: { "data": [User, …], "meta": { "page", "limit", "total", "totalPages" } }',
    )
    expect(verify(withoutMeta, 'core')).toBeUndefined()
    expect(verify({ path: '/api/users', status: 200, json: { data: [], meta: [] } })).toContain('Received: meta []')
  })

  test('errors, 204 and HEAD answers are not judged', () => {
    expect(verify({ path: '/api/users/me', status: 401, json: { code: 'UNAUTHENTICATED' } }, 'core')).toBeUndefined()
    expect(verify({ method: 'DELETE', path: '/api/users/usr_x', status: 204 })).toBeUndefined()
    expect(verify({ method: 'HEAD', path: '/api/users/me', status: 200 }, 'core')).toBeUndefined()
  })
})
