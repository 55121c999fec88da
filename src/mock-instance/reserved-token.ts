import type { MockState } from '../domain/mock-state.js'
import { AppError } from '../errors.js'

/**
 * A user whose token is the mock's control token would open the control routes, and the control token
 * would open the users API: refused in the seed, a state file and `PUT /__mock/state` alike.
 */
export function assertNoUserHasToken(state: MockState, reservedToken: string | undefined): void {
  if (reservedToken === undefined) return
  const index = state.users.findIndex((user) => user.token === reservedToken)
  if (index === -1) return
  const message = 'is the control token of this mock; give the user another token'
  throw new AppError('VALIDATION_FAILED', `Invalid state at /users/${index}/token: ${message}`, {
    errors: [{ in: 'body', path: `/users/${index}/token`, message }],
  })
}
