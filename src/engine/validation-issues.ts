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

/** A 400 listing every issue; its detail names the first. */
export function invalidRequest(issues: ValidationIssue[]): AppError {
  const first = issues[0]
  return new AppError('VALIDATION_FAILED', `The request is invalid: ${first ? describe(first) : 'it is malformed'}.`, {
    errors: issues,
  })
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
