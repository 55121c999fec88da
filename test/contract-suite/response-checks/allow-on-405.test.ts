import { describe, expect, test } from 'vitest'
import { allowOn405 } from '../../../src/contract/checks/allow-on-405.js'
import { prepareCheck } from '../../support/exchange-builder.js'

const verify = await prepareCheck(allowOn405)
const refused = (method: string, path: string, allow?: string) => ({
  method,
  path,
  status: 405,
  headers: { allow },
})

describe('allow-on-405', () => {
  test.each([
    ['PATCH', '/api/users/me', 'GET'],
    ['DELETE', '/api/users/me', 'GET'],
    ['DELETE', '/api/users/me', 'GET, HEAD, OPTIONS'],
    ['PUT', '/api/users/me', 'GET'],
    ['POST', '/api/users', 'GET'],
    ['PUT', '/api/users/usr_x', 'GET, PATCH, DELETE'],
    ['POST', '/api/users/usr_x', 'GET,PATCH,DELETE'],
  ])('%s %s with Allow: %s passes', (method, path, allow) => {
    expect(verify(refused(method, path, allow))).toBeUndefined()
  })

  test('a 405 without Allow fails', () => {
    expect(verify(refused('POST', '/api/users'))).toBe(
      'Received: no Allow header\nDocumented: Allow, the methods the path answers',
    )
  })

  test.each(['', 'GET;PUT', 'GET, , PATCH', 'GET PATCH'])('Allow: "%s" is no list of methods and fails', (allow) => {
    expect(verify(refused('POST', '/api/users', allow))).toBe(
      `Received: Allow: ${allow}\nDocumented: Allow, a comma-separated list of methods`,
    )
  })

  test('an Allow that lists the refused method itself fails', () => {
    expect(verify(refused('POST', '/api/users', 'GET, POST'))).toBe(
      'Received: Allow: GET, POST on a 405 to POST\nDocumented: the methods the path answers, which are not POST',
    )
  })

  test('on /api/users/me, Allow is exactly GET (CONTRACT §4)', () => {
    expect(verify(refused('PATCH', '/api/users/me', 'GET, DELETE'))).toBe(
      'Received: Allow: GET, DELETE on /api/users/me\nDocumented: Allow: GET',
    )
    expect(verify(refused('PUT', '/api/users/me', 'GET, PATCH, DELETE'))).toContain('Documented: Allow: GET')
    expect(verify(refused('DELETE', '/api/users/me', 'HEAD'))).toContain('Documented: Allow: GET')
  })

  test('other statuses are not judged', () => {
    expect(verify({ method: 'POST', path: '/api/users', status: 404 })).toBeUndefined()
  })
})
