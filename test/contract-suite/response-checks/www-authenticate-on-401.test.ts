import { describe, expect, test } from 'vitest'
import { wwwAuthenticateOn401 } from '../../../src/contract/checks/www-authenticate-on-401.js'
import { prepareCheck, type ExchangeDraft } from '../../support/exchange-builder.js'

const verify = await prepareCheck(wwwAuthenticateOn401)

function refusal(request: Partial<ExchangeDraft>, challenge?: string): ExchangeDraft {
  return {
    path: '/api/users/me',
    status: 401,
    ...request,
    headers: challenge === undefined ? {} : { 'www-authenticate': challenge },
  }
}

describe('www-authenticate-on-401 (CONTRACT §2)', () => {
  test.each([
    ['no Authorization', {}, 'Bearer'],
    ['no Authorization, lower-case scheme', {}, 'bearer'],
    ['no Authorization, with a realm', {}, 'Bearer realm="users"'],
    ['another scheme', { requestHeaders: { Authorization: 'Basic dXNlcjpwdw==' } }, 'Bearer'],
    ['an empty Bearer token', { requestHeaders: { authorization: 'Bearer ' } }, 'Bearer'],
    ['a refused token', { token: 'stale-token' }, 'Bearer error="invalid_token"'],
    ['a refused token, unquoted', { token: 'stale-token' }, 'Bearer realm="users", error=invalid_token'],
    // docs/contract.md §2 (profile): spaces and tabs around the token are ignored.
    [
      'a refused token after a tab',
      { requestHeaders: { authorization: 'Bearer\tstale-token' } },
      'Bearer error="invalid_token"',
    ],
  ])('%s answered %s passes', (_case, request, challenge) => {
    expect(verify(refusal(request, challenge))).toBeUndefined()
  })

  test('a 401 without WWW-Authenticate fails', () => {
    expect(verify(refusal({}))).toBe(
      'Received: no WWW-Authenticate header\nDocumented: WWW-Authenticate: Bearer (RFC 6750)',
    )
  })

  test.each(['Basic realm="users"', 'Bearerish', ''])('a challenge "%s" fails', (challenge) => {
    expect(verify(refusal({}, challenge))).toBe(
      `Received: WWW-Authenticate: ${challenge}\nDocumented: WWW-Authenticate: Bearer (RFC 6750)`,
    )
  })

  test('a refused non-empty token without error="invalid_token" fails', () => {
    expect(verify(refusal({ token: 'stale-token' }, 'Bearer'))).toBe(
      'Received: WWW-Authenticate: Bearer for a refused Bearer token\nDocumented: Bearer error="invalid_token"',
    )
  })

  test('error="invalid_token" without a Bearer token fails', () => {
    const message = verify(refusal({}, 'Bearer error="invalid_token"'))
    expect(message).toBe(
      'Received: WWW-Authenticate: Bearer error="invalid_token" for a request without a Bearer token\n' +
        'Documented: Bearer, without error="invalid_token"',
    )
    expect(verify(refusal({ requestHeaders: { authorization: 'Bearer   ' } }, 'Bearer error=invalid_token'))).toContain(
      'for a request without a Bearer token',
    )
  })

  test('other statuses are not judged', () => {
    expect(verify({ path: '/api/users/me', status: 403 })).toBeUndefined()
  })
})
