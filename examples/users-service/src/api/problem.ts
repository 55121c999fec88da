/** The error codes of the users API (docs/contract.md §5), each with its status and reason phrase. */
const PROBLEMS = {
  VALIDATION_FAILED: { status: 400, title: 'Bad Request' },
  UNAUTHENTICATED: { status: 401, title: 'Unauthorized' },
  FORBIDDEN: { status: 403, title: 'Forbidden' },
  USER_NOT_FOUND: { status: 404, title: 'Not Found' },
  NOT_FOUND: { status: 404, title: 'Not Found' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method Not Allowed' },
  INVALID_TRANSITION: { status: 409, title: 'Conflict' },
  // RFC 9110's name for 413 (RFC 7231 called it Payload Too Large).
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Content Too Large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported Media Type' },
  INTERNAL: { status: 500, title: 'Internal Server Error' },
} as const

export type ErrorCode = keyof typeof PROBLEMS

/** One issue of a 400: where (`in`), a JSON pointer (`path`), and what is wrong. */
export interface Issue {
  in: 'body' | 'query' | 'path' | 'header'
  path: string
  message: string
}

/** At most this many issues are listed (the document's maxItems); `detail` counts them all. */
const MAX_LISTED_ISSUES = 100

/**
 * Every refusal of the API: a code, a sentence for people, and what the answer carries besides.
 *
 * @example
 * throw new ApiError('USER_NOT_FOUND', `No user ${id} in your organization.`)
 */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { issues?: Issue[]; headers?: Record<string, string> } = {},
  ) {
    super(message)
  }
}

export interface ProblemAnswer {
  status: number
  headers: Record<string, string>
  body: Record<string, unknown>
}

/** An ApiError as an RFC 9457 problem; anything else is a 500 whose cause stays in the log. */
export function toProblem(error: unknown): ProblemAnswer {
  const known = error instanceof ApiError ? error : new ApiError('INTERNAL', 'The service failed to answer.')
  const { status, title } = PROBLEMS[known.code]
  const issues = known.extra.issues
  const detail =
    issues && issues.length > MAX_LISTED_ISSUES
      ? `${known.message} ${issues.length} issues; the first ${MAX_LISTED_ISSUES} are listed.`
      : known.message
  const body: Record<string, unknown> = { type: 'about:blank', title, status, code: known.code, detail }
  if (issues) body['errors'] = issues.slice(0, MAX_LISTED_ISSUES)
  return { status, headers: known.extra.headers ?? {}, body }
}

/** `~` and `/` in a key, as RFC 6901 escapes them in a JSON pointer. */
export function pointerTo(key: string): string {
  return `/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`
}
