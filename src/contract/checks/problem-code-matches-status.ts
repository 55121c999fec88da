import { hasNoBodyByHttp } from '../client/exchange.js'
import { describeValue } from './describe-value.js'
import { defineCheck } from './define-check.js'

/**
 * CONTRACT §5: the code of each status. The table is closed; 503 SERVICE_UNAVAILABLE is the project's
 * addition (docs/decisions/0003-profile-responses.md). 404 is refined by whether a route matched.
 */
const CODES: Record<number, string> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'USER_NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'INVALID_TRANSITION',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  500: 'INTERNAL',
  503: 'SERVICE_UNAVAILABLE',
}

const ISSUE_PLACES = ['body', 'query', 'path', 'header']

export const problemCodeMatchesStatus = defineCheck({
  name: 'problem-code-matches-status',
  rule: 'A problem carries the code of its status, a detail and a title, and errors on a 400 only (docs/contract.md §5)',
  layer: 'profile',
  covers: ['§5.codes', '§5.problem.fields', '§5.errors'],
  verify(exchange) {
    const { response, operation } = exchange
    const problem = response.body
    // Not an object: errors-are-problem-details reports it.
    if (response.status < 400 || hasNoBodyByHttp(exchange) || !isRecord(problem)) return undefined
    // CONTRACT §4: a route the document does not have is NOT_FOUND; a user that does not exist, USER_NOT_FOUND.
    const code = response.status === 404 && !operation ? 'NOT_FOUND' : CODES[response.status]
    if (code === undefined) {
      return `Received: ${response.status} (code ${describeValue(problem.code)})\nDocumented: the statuses of docs/contract.md §5: ${Object.keys(CODES).join(', ')}`
    }
    if (problem.code !== code)
      return `Received: code ${describeValue(problem.code)} on a ${response.status}\nDocumented: ${code}`
    if (typeof problem.detail !== 'string' || problem.detail.trim() === '') {
      return `Received: detail ${describeValue(problem.detail)}\nDocumented: detail, a non-empty string`
    }
    if (typeof problem.title !== 'string')
      return `Received: title ${describeValue(problem.title)}\nDocumented: title, a string`
    if (response.status !== 400) {
      return 'errors' in problem
        ? `Received: errors ${describeValue(problem.errors)} on a ${response.status}\nDocumented: errors on a 400 only`
        : undefined
    }
    return verifyIssues(problem.errors)
  },
})

/** `errors` of a 400: `[{ in, path, message }, …]`, at least one. */
function verifyIssues(errors: unknown): string | undefined {
  const documented =
    'Documented: errors, a non-empty array of { in: body|query|path|header, path: JSON pointer, message }'
  if (!Array.isArray(errors) || errors.length === 0) return `Received: errors ${describeValue(errors)}\n${documented}`
  const broken = errors.find(
    (issue) =>
      !isRecord(issue) ||
      !ISSUE_PLACES.includes(String(issue.in)) ||
      typeof issue.path !== 'string' ||
      !(issue.path === '' || issue.path.startsWith('/')) ||
      typeof issue.message !== 'string' ||
      issue.message === '',
  )
  return broken === undefined ? undefined : `Received: errors item ${describeValue(broken)}\n${documented}`
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
