import { describe, expect, test } from 'vitest'
import { noInternalErrors } from '../../../src/contract/checks/no-internal-errors.js'
import { aProblem, prepareCheck } from '../../support/exchange-builder.js'

const verify = await prepareCheck(noInternalErrors)

describe('no-internal-errors (CONTRACT §5: a 500 is never expected)', () => {
  test('a 500 fails, although the document lists it', () => {
    expect(verify({ path: '/api/users/me', status: 500, json: aProblem(500, 'INTERNAL') })).toContain('Received: 500')
  })

  test.each([200, 400, 404, 503])('a %i passes', (status) => {
    expect(
      verify({ path: '/api/users/me', status, json: status === 200 ? { data: {} } : aProblem(status, 'X') }),
    ).toBeUndefined()
  })
})
