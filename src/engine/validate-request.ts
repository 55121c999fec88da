import { checkUserName } from '../domain/user-name.js'
import type { ValidationIssue } from '../errors.js'
import type { RoutedOperation } from '../spec/operation-table.js'
import { MALFORMED } from '../spec/path-templates.js'
import type { RouteMatch } from './route-request.js'
import { invalidRequest, issuesOf } from './validation-issues.js'

/** A request's parameters and body once valid: what the operation handlers read. */
export interface ValidRequest {
  params: Record<string, string>
  query: Record<string, unknown>
  body: unknown
}

const DECIMAL_INTEGER = /^-?\d+$/

/**
 * CONTRACT §4–§5: the path parameters, the query and the body against the document's schemas, every
 * issue reported at once (400). Unknown query parameters are ignored; a known one given twice, an
 * integer not written in decimal digits or beyond 2^53 − 1, and an id that cannot be one are issues.
 */
export function validateRequest(match: RouteMatch, searchParams: URLSearchParams, body: unknown): ValidRequest {
  const { operation } = match
  const issues: ValidationIssue[] = []
  const params: Record<string, string> = {}
  for (const [name, value] of Object.entries(match.params)) {
    if (value === MALFORMED) issues.push({ in: 'path', path: `/${name}`, message: 'is not validly percent-encoded' })
    else params[name] = value
  }
  if (operation.validate.path && issues.length === 0) issues.push(...issuesOf(operation.validate.path, params, 'path'))
  const query = readQuery(operation, searchParams, issues)
  if (operation.validate.query) issues.push(...issuesOf(operation.validate.query, query, 'query'))
  if (operation.validate.body) issues.push(...issuesOf(operation.validate.body, body, 'body'))
  if (issues.length === 0) issues.push(...nameIssues(body))
  if (issues.length > 0) throw invalidRequest(issues)
  return { params, query, body }
}

/**
 * CONTRACT §1 (user-name.ts), whatever the document's schema says: the kit's pattern refuses the same
 * names, a team's laxer document (`--spec`) would not. Here, so that it answers with the other 400s,
 * before the domain's 404 and 403.
 */
function nameIssues(body: unknown): ValidationIssue[] {
  const name = (body as { name?: unknown } | null | undefined)?.name
  if (typeof name !== 'string') return []
  const { problem } = checkUserName(name)
  return problem === undefined ? [] : [{ in: 'body', path: '/name', message: problem }]
}

/** The operation's own query parameters, integers as numbers; the rest of the query is ignored. */
function readQuery(
  operation: RoutedOperation,
  searchParams: URLSearchParams,
  issues: ValidationIssue[],
): Record<string, unknown> {
  // No prototype: a parameter named __proto__ is a plain key.
  const query: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  for (const { name, integer } of operation.queryParameters) {
    const values = searchParams.getAll(name)
    if (values.length === 0) continue
    if (values.length > 1) {
      issues.push({ in: 'query', path: `/${name}`, message: 'is given more than once; give it once' })
      continue
    }
    const value = values[0] as string
    if (!integer) {
      query[name] = value
    } else if (!DECIMAL_INTEGER.test(value)) {
      issues.push({ in: 'query', path: `/${name}`, message: 'must be an integer written in decimal digits' })
    } else {
      const number = Number(value)
      if (!Number.isSafeInteger(number))
        issues.push({ in: 'query', path: `/${name}`, message: `is too large (at most ${Number.MAX_SAFE_INTEGER})` })
      else query[name] = number
    }
  }
  return query
}
