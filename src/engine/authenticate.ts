import type { User } from '../domain/user.js'
import type { UserStore } from '../domain/user-store.js'
import { AppError } from '../errors.js'
import { readBearerToken } from './bearer-token.js'

const HINT =
  'Send the header Authorization: Bearer <token> with the token of an ACTIVE user (the mock lists them at GET /__mock/tokens, and mock.tokens() in code).'

/**
 * CONTRACT §2: the caller comes from the Bearer token alone. A missing header, another scheme or an
 * empty token is refused without `error="invalid_token"`; a token that was sent and refused, with it.
 */
export function authenticate(authorization: string | undefined, store: UserStore): User {
  const credentials = readBearerToken(authorization)
  if (credentials.kind !== 'token') throw new AppError('UNAUTHENTICATED', `${NO_TOKEN[credentials.kind]} ${HINT}`)
  try {
    return store.authenticate(credentials.token)
  } catch (error) {
    throw withHint(error)
  }
}

/** Why no token was read, in the detail. */
const NO_TOKEN = {
  missing: 'No Authorization header.',
  'not-bearer': 'The Authorization scheme is not Bearer.',
  empty: 'The Bearer token is empty.',
}

/** The store's refusal (a 401 with `invalid_token`) with the hint added to its detail. */
function withHint(error: unknown): unknown {
  return error instanceof AppError ? new AppError(error.code, `${error.message} ${HINT}`, error.details) : error
}
