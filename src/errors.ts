import type { components } from './spec/users-api.js'

/**
 * The error codes of the users API's answers: the document's (`Problem.code`). The domain and the engine throw
 * AppError with one; only the engine knows which status a code maps to (src/engine/problems.ts). The kit's other
 * errors (the proxy's, the suite's, the readers' limits) are their own types, never sent as the API's.
 */
export type ErrorCode = components['schemas']['Problem']['code']

/** Where a validation issue sits, as CONTRACT §5 names it. */
export interface ValidationIssue {
  in: 'body' | 'query' | 'path' | 'header'
  /** JSON pointer into that part of the request; '' for the whole of it. */
  path: string
  message: string
}

export interface ErrorDetails {
  /** VALIDATION_FAILED: what is wrong, where. */
  errors?: ValidationIssue[]
  /** METHOD_NOT_ALLOWED: the methods the path answers. */
  allow?: string[]
  /** UNAUTHENTICATED: a non-empty Bearer token was sent and refused (RFC 6750 `invalid_token`). */
  invalidToken?: boolean
  /** RATE_LIMITED, SERVICE_UNAVAILABLE: seconds to wait. */
  retryAfter?: number
  [key: string]: unknown
}

/**
 * @example
 * throw new AppError('USER_NOT_FOUND', `No user ${id} in your organization.`)
 */
export class AppError extends Error {
  override readonly name = 'AppError'

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message)
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError
}
