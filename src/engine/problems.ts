import { AppError, isAppError, type ErrorCode } from '../errors.js'
import { REASON_PHRASES, type PhrasedStatus } from '../http/reason-phrases.js'
import type { EngineResponse } from './engine-request.js'

/**
 * The only mapping from an error code to HTTP (CONTRACT §5), checked complete by the compiler; the
 * title of each is its status's reason phrase (src/http/reason-phrases.ts), as about:blank requires.
 */
const STATUSES = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  USER_NOT_FOUND: 404,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  INVALID_TRANSITION: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
} as const satisfies Record<ErrorCode, PhrasedStatus>

/** The code a bare status stands for: the first of the table with that status. */
export function codeForStatus(status: number): ErrorCode | undefined {
  const entry = Object.entries(STATUSES).find(([, codeStatus]) => codeStatus === status)
  return entry?.[0] as ErrorCode | undefined
}

/** The RFC 9457 body of CONTRACT §5. */
export interface Problem {
  type: 'about:blank'
  title: string
  status: number
  code: string
  detail: string
  errors?: NonNullable<AppError['details']['errors']>
}

/** The problem+json media type, as the mock sends it. */
const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8'

export function toProblem(error: AppError): Problem {
  const status = STATUSES[error.code]
  const problem: Problem = {
    type: 'about:blank',
    title: REASON_PHRASES[status],
    status,
    code: error.code,
    detail: error.message,
  }
  if (error.code === 'VALIDATION_FAILED') {
    problem.errors = error.details.errors?.length
      ? error.details.errors
      : [{ in: 'body', path: '', message: error.message }]
  }
  return problem
}

/** Any error as an `application/problem+json` answer, with the headers its status requires. */
export function toProblemResponse(error: AppError): EngineResponse {
  const problem = toProblem(error)
  const headers: Record<string, string> = { 'content-type': PROBLEM_CONTENT_TYPE }
  if (error.code === 'UNAUTHENTICATED') {
    // CONTRACT §2, RFC 6750: `error="invalid_token"` only when a non-empty Bearer token was refused.
    headers['www-authenticate'] = error.details.invalidToken ? 'Bearer error="invalid_token"' : 'Bearer'
  }
  if (error.code === 'METHOD_NOT_ALLOWED') headers['allow'] = (error.details.allow ?? []).join(', ')
  if (error.details.retryAfter !== undefined) headers['retry-after'] = String(error.details.retryAfter)
  return { status: problem.status, headers, body: JSON.stringify(problem) }
}

/** Whatever was thrown, as an AppError: anything unknown is INTERNAL, whose cause is logged, never sent. */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error
  return new AppError('INTERNAL', 'Something went wrong on our side. It is logged; the request changed nothing.', {
    cause: error,
  })
}
