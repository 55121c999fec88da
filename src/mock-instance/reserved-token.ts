import type { MockState, StoredUser } from '../domain/mock-state.js'
import type { StateSource } from '../domain/user-store.js'
import { AppError } from '../errors.js'

/**
 * A user whose token is the mock's control token would open the control routes, and the control token
 * would open the users API: refused in the seed, a state file and `PUT /__mock/state` alike.
 */
export function assertNoUserHasToken(state: MockState, reservedToken: string | undefined): void {
  if (reservedToken === undefined) return
  const index = state.users.findIndex((user) => user.token === reservedToken)
  if (index !== -1) throw reservedTokenError(index)
}

/** The state, its users checked as they are read (a seed that streams is read once, by the store). */
export function withoutReservedToken(state: StateSource, reservedToken: string | undefined): StateSource {
  if (reservedToken === undefined) return state
  return { organizations: state.organizations, users: checkedUsers(state.users, reservedToken) }
}

function* checkedUsers(users: Iterable<StoredUser>, reservedToken: string): Generator<StoredUser> {
  let index = 0
  for (const user of users) {
    if (user.token === reservedToken) throw reservedTokenError(index)
    index++
    yield user
  }
}

function reservedTokenError(index: number): AppError {
  const message = 'is the control token of this mock; give the user another token'
  return new AppError('VALIDATION_FAILED', `Invalid state at /users/${index}/token: ${message}`, {
    errors: [{ in: 'body', path: `/users/${index}/token`, message }],
  })
}
