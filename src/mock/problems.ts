import type { ErrorCode } from '../errors.js'

/** The only mapping from an error code to HTTP (CONTRACT §5), checked complete by the compiler. */
export const PROBLEMS = {
  VALIDATION_FAILED: { status: 400, title: 'Bad Request' },
  UNAUTHENTICATED: { status: 401, title: 'Unauthorized' },
  FORBIDDEN: { status: 403, title: 'Forbidden' },
  USER_NOT_FOUND: { status: 404, title: 'Not Found' },
  NOT_FOUND: { status: 404, title: 'Not Found' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method Not Allowed' },
  INVALID_TRANSITION: { status: 409, title: 'Conflict' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Content Too Large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported Media Type' },
  RATE_LIMITED: { status: 429, title: 'Too Many Requests' },
  INTERNAL: { status: 500, title: 'Internal Server Error' },
  SERVICE_UNAVAILABLE: { status: 503, title: 'Service Unavailable' },
} as const satisfies Record<ErrorCode, { status: number; title: string }>

/** The code a bare status stands for: the first of the table with that status. */
export function codeForStatus(status: number): ErrorCode | undefined {
  const entry = Object.entries(PROBLEMS).find(([, problem]) => problem.status === status)
  return entry?.[0] as ErrorCode | undefined
}
