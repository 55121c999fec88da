import type { FastifyRequest } from 'fastify'
import type { User } from '../domain/user.js'
import type { UserStore } from '../domain/user-store.js'
import { AppError } from '../errors.js'

const HINT =
  'Send the header Authorization: Bearer <token> with the token of an ACTIVE user (the mock lists them at GET /__mock/tokens).'

/**
 * CONTRACT §2: the caller comes from the Bearer token alone. A missing header, another scheme or an
 * empty token is refused without `error="invalid_token"`; a token that was sent and refused, with it.
 */
export function authenticate(request: FastifyRequest, store: UserStore): User {
  const header = request.headers.authorization
  if (header === undefined) throw new AppError('UNAUTHENTICATED', `No Authorization header. ${HINT}`)
  // RFC 7235: the scheme is case-insensitive.
  // Only spaces and tabs surround a header value (RFC 9110 §5.5); JavaScript's trim() would also strip
  // U+00A0 and the like, and `owner-token\u00A0` would authenticate.
  const match = /^Bearer(?:[ ]+(.*))?$/i.exec(trimWhitespace(header))
  if (!match) throw new AppError('UNAUTHENTICATED', `The Authorization scheme is not Bearer. ${HINT}`)
  const token = trimWhitespace(match[1] ?? '')
  if (token === '') throw new AppError('UNAUTHENTICATED', `The Bearer token is empty. ${HINT}`)
  try {
    return store.authenticate(token)
  } catch (error) {
    if (error instanceof AppError) throw new AppError(error.code, `${error.message} ${HINT}`, error.details)
    throw error
  }
}

/** Strips what may surround a header value: spaces and tabs, nothing else. */
export function trimWhitespace(value: string): string {
  return value.replace(/^[ \t]+|[ \t]+$/g, '')
}
