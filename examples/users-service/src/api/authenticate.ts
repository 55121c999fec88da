import type { Database } from '../database/database.js'
import { hashToken } from '../random-ids.js'
import { findTokenHolder, type User } from '../users/users-table.js'
import { ApiError } from './problem.js'

/**
 * docs/contract.md §2: the caller behind `Authorization: Bearer <token>`, who must be ACTIVE. The scheme
 * matches in any case; spaces and tabs around the token are not part of it.
 *
 * @throws ApiError UNAUTHENTICATED with `WWW-Authenticate: Bearer`, and `error="invalid_token"` when a
 *   non-empty token was sent and refused
 */
export async function authenticate(db: Database, header: string | undefined): Promise<User> {
  const match = /^Bearer(?:[ \t]+(.*))?$/i.exec(header ?? '')
  const token = match?.[1]?.replace(/[ \t]+$/, '') ?? ''
  if (token === '') {
    throw new ApiError('UNAUTHENTICATED', 'Send Authorization: Bearer <token>.', {
      headers: { 'www-authenticate': 'Bearer' },
    })
  }
  const user = await findTokenHolder(db, hashToken(token))
  // A SUSPENDED or INVITED user's token is refused as an unknown one is; it works again once ACTIVE.
  if (user?.status !== 'ACTIVE') {
    throw new ApiError('UNAUTHENTICATED', 'The token is not valid.', {
      headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
    })
  }
  return user
}
