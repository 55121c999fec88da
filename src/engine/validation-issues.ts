import { MAX_NAME_LENGTH } from '../domain/user-name.js'
import { AppError, type ValidationIssue } from '../errors.js'
import { toValidationIssue } from '../spec/schema-issues.js'
import type { Validator } from '../spec/operation-table.js'

const PART_NAMES: Record<ValidationIssue['in'], string> = {
  body: 'body',
  query: 'query parameter',
  path: 'path parameter',
  header: 'header',
}

/** A 400 with one issue, whose message says it all. */
export function invalid(part: ValidationIssue['in'], path: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', `The request is invalid: ${message}.`, {
    errors: [{ in: part, path, message }],
  })
}

/**
 * The most issues a 400 lists: the document's `maxItems` of `errors`. A 16 KiB body of unknown keys
 * has thousands of issues, and would be answered with ten times its size (OWASP API4).
 */
export const MAX_LISTED_ISSUES = 100

/** A 400 listing the first MAX_LISTED_ISSUES issues; its detail names the first, and counts them all if more. */
export function invalidRequest(issues: ValidationIssue[]): AppError {
  const first = issues[0]
  const count =
    issues.length > MAX_LISTED_ISSUES ? ` (${issues.length} issues; the first ${MAX_LISTED_ISSUES} listed)` : ''
  return new AppError(
    'VALIDATION_FAILED',
    `The request is invalid: ${first ? describe(first) : 'it is malformed'}${count}.`,
    { errors: issues.slice(0, MAX_LISTED_ISSUES) },
  )
}

/** Runs a validator; its errors as CONTRACT §5 issues of one part of the request. */
export function issuesOf(validate: Validator, value: unknown, part: ValidationIssue['in']): ValidationIssue[] {
  if (validate(value)) return []
  return (validate.errors ?? []).map((error) => toIssue(error, part))
}

function describe(issue: ValidationIssue): string {
  return `${PART_NAMES[issue.in]} ${issue.path || '(whole)'} ${issue.message}`
}

/** The name's pattern (docs/decisions/0002-name-pattern.md) says nothing to a person; this does. */
function toIssue(error: NonNullable<Validator['errors']>[number], part: ValidationIssue['in']): ValidationIssue {
  if (error.keyword === 'pattern' && error.instancePath === '/name') {
    return { in: part, path: error.instancePath, message: `must be 1 to ${MAX_NAME_LENGTH} characters once trimmed` }
  }
  return toValidationIssue(error, part)
}
