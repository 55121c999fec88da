import { defineCheck } from './define-check.js'

/**
 * The document lists 500 on every operation (it can happen, and clients must read it as a problem), but
 * no request of the suite may cause one: being documented does not make it a correct answer.
 */
export const noInternalErrors = defineCheck({
  name: 'no-internal-errors',
  rule: 'A 500 is never expected: bad input is a 4xx (docs/contract.md §5)',
  layer: 'profile',
  covers: ['§5.500'],
  verify({ response }) {
    if (response.status !== 500) return undefined
    return 'Received: 500\nExpected: an answer of the users API (a 4xx for a bad request); a 500 is a bug of the server'
  },
})
