import type { Organization, User } from './user.js'

/** A user as the mock stores it: the resource, and the token that authenticates as them, if any. */
export interface StoredUser extends User {
  token?: string
}

/**
 * The whole state of the mock: what fixture files hold, what `GET /__mock/state` exports and
 * `PUT /__mock/state` imports. One format for all three, so a saved state is also a fixture file.
 */
export interface MockState {
  organizations: Organization[]
  users: StoredUser[]
}
