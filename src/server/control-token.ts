import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { AppError } from '../errors.js'
import { readBearerToken } from '../engine/bearer-token.js'

/**
 * The guard of the control routes when the mock has a control token (`--control-token`): they can
 * replace the whole state and list every token, so on a shared network only its holder may call them.
 * Tokens of the users API never open them.
 */
export function createControlTokenGuard(controlToken: string): (request: FastifyRequest) => Promise<void> {
  // Digests compare in constant time whatever the lengths: the answer tells nothing of the token.
  const expected = digest(controlToken)
  return async (request) => {
    const credentials = readBearerToken(request.headers.authorization)
    const token = credentials.kind === 'token' ? credentials.token : undefined
    if (token !== undefined && timingSafeEqual(digest(token), expected)) return
    throw new AppError(
      'UNAUTHENTICATED',
      token === undefined
        ? 'This mock protects its /__mock/ routes: send Authorization: Bearer <control token> (the value of --control-token or USERS_API_KIT_CONTROL_TOKEN where it was started).'
        : 'The Bearer token is not the control token of this mock (tokens of the users API do not open /__mock/ routes).',
      token === undefined ? {} : { invalidToken: true },
    )
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest()
}
