import { describe, expect, test } from 'vitest'
import { bodyMatchesSchema } from '../../../src/contract/checks/body-matches-schema.js'
import { aProblem, aUser, omit, prepareCheck } from '../../support/exchange-builder.js'

const verify = await prepareCheck(bodyMatchesSchema)
const me = (data: unknown) => ({ path: '/api/users/me', status: 200, json: { data } })

describe('body-matches-schema', () => {
  test('a user envelope of getCurrentUser passes under all and core', () => {
    expect(verify(me(aUser()))).toBeUndefined()
    expect(verify(me(aUser()), 'core')).toBeUndefined()
  })

  test('a role outside the enum fails, naming the operation, the pointer, the rule and the value', () => {
    const message = verify(me(aUser({ role: 'SUPERUSER' })))
    expect(message).toBe(
      'Received: a body that breaks the schema of getCurrentUser 200 application/json:\n' +
        '  /data/role must be one of CLIENT_OWNER, CLIENT_ADMIN, CLIENT_VIEWER, BOT_USER; received "SUPERUSER"\n' +
        'Documented: the schema of getCurrentUser 200 application/json',
    )
  })

  test('a missing core property fails under core, naming the key', () => {
    expect(verify(me(omit(aUser(), 'email')), 'core')).toContain('  /data/email is required; received nothing')
  })

  test('a missing profile property fails under all and passes under core', () => {
    const withoutStatus = omit(aUser(), 'status')
    expect(verify(me(withoutStatus))).toContain('/data/status is required')
    expect(verify(me(withoutStatus), 'core')).toBeUndefined()
  })

  test('a list page is checked against UserList: meta is required under all, not under core', () => {
    const list = { path: '/api/users', status: 200, json: { data: [aUser()] } }
    expect(verify(list)).toContain('Received: a body that breaks the schema of listUsers 200 application/json')
    expect(verify(list)).toContain('/meta is required')
    expect(verify(list, 'core')).toBeUndefined()
  })

  test('a message shows five failures, the count of the others, and cuts long values', () => {
    const message =
      verify(me({ id: '', email: 'x', name: 'n'.repeat(300), role: 1, organizationId: '', status: 'GONE' })) ?? ''
    expect(message.match(/^ {2}\//gm)).toHaveLength(5)
    expect(message).toMatch(/… and \d+ more/)
    expect(message).toContain(`received "${'n'.repeat(79)}…`)
  })

  test('a problem that breaks its schema fails under all, and is not judged under core (CONTRACT §5 is profile)', () => {
    const draft = { path: '/api/users/me', status: 401, json: aProblem(401, 'UNAUTHENTICATED', { code: 'NOPE' }) }
    expect(verify(draft)).toContain(
      'Received: a body that breaks the schema of getCurrentUser 401 application/problem+json',
    )
    expect(verify(draft)).toContain('/code')
    expect(verify(draft, 'core')).toBeUndefined()
  })

  test('a documented JSON response with no body fails', () => {
    const draft = { path: '/api/users/me', status: 200, headers: { 'content-type': 'application/json' } }
    expect(verify(draft)).toBe(
      'Received: no body\nDocumented: a body of the schema of getCurrentUser 200 application/json',
    )
  })

  test('undocumented media types, unparseable bodies and unknown routes are left to the other checks', () => {
    expect(
      verify({ path: '/api/users/me', status: 200, headers: { 'content-type': 'text/plain' }, text: 'x' }),
    ).toBeUndefined()
    expect(
      verify({ path: '/api/users/me', status: 200, headers: { 'content-type': 'application/json' }, text: '{' }),
    ).toBeUndefined()
    expect(verify({ path: '/api/nothing-here', status: 200, json: { nothing: true } })).toBeUndefined()
  })
})
