import { describe, expect, test } from 'vitest'
import { retryAfterOn429 } from '../../../src/contract/checks/retry-after-on-429.js'
import { prepareCheck } from '../../support/exchange-builder.js'

const verify = await prepareCheck(retryAfterOn429)
const tooMany = (retryAfter?: string) => ({
  path: '/api/users',
  status: 429,
  headers: { 'Retry-After': retryAfter },
})

describe('retry-after-on-429 (CONTRACT §5)', () => {
  test.each(['1', '120', 'Sun, 06 Nov 1994 08:49:37 GMT'])('Retry-After: %s passes', (value) => {
    expect(verify(tooMany(value))).toBeUndefined()
  })

  test('a 429 without Retry-After fails', () => {
    expect(verify(tooMany())).toBe('Received: no Retry-After header\nDocumented: Retry-After: <seconds> or <HTTP date>')
  })

  test.each(['soon', '1.5', '-1', '2024-01-01T00:00:00Z', 'Sun, 32 Nov 1994 08:49:37 GMT'])(
    'Retry-After: %s fails',
    (value) => {
      expect(verify(tooMany(value))).toBe(
        `Received: Retry-After: ${value}\nDocumented: Retry-After: <seconds> or <HTTP date> (RFC 9110 §10.2.3)`,
      )
    },
  )

  test('other statuses are not judged', () => {
    expect(verify({ path: '/api/users', status: 503 })).toBeUndefined()
  })
})
