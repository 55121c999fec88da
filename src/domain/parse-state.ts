import { AppError, type ValidationIssue } from '../errors.js'
import { toValidationIssue } from '../spec/schema-issues.js'
import type { Validator } from '../spec/operation-table.js'
import type { MockState, StoredUser } from './mock-state.js'
import { checkUserName } from './user-name.js'
import type { Organization } from './user.js'

/** At most this many issues travel in `details.errors`; the message names the first. */
const MAX_ISSUES = 50

type Report = (path: string, message: string) => void

/**
 * Checks a state document (a fixture file, a `PUT /__mock/state` body) and returns it as the mock
 * stores it: the schema first (`compileStateValidator`), then the rules a schema cannot say. Dates come
 * back in canonical `toISOString()` form, because the list order compares them as strings. The input is
 * never mutated.
 *
 * @throws AppError('VALIDATION_FAILED') whose message names the first problem, e.g.
 *   `Invalid state at /users/3/email: duplicates /users/1/email (emails are unique, case-insensitively)`,
 *   and whose `details.errors` lists the problems (`in: 'body'`, JSON pointers), first one first.
 * @example
 * const state = parseState(JSON.parse(text), compileStateValidator(spec.dereferenced))
 */
export function parseState(input: unknown, validate: Validator): MockState {
  if (!validate(input)) throw toInvalidState((validate.errors ?? []).map((error) => toValidationIssue(error, 'body')))
  const state = input as MockState
  const issues = findRuleIssues(state)
  if (issues.length > 0) throw toInvalidState(issues)
  return normalizeState(state)
}

function toInvalidState(issues: ValidationIssue[]): AppError {
  const first = issues[0] ?? { in: 'body', path: '', message: 'is invalid' }
  const where = first.path === '' ? 'the root' : first.path
  return new AppError('VALIDATION_FAILED', `Invalid state at ${where}: ${first.message}`, {
    errors: issues.length > 0 ? issues.slice(0, MAX_ISSUES) : [first],
  })
}

/** Document order: organizations, then each user field by field, so the first issue is the first problem. */
function findRuleIssues(state: MockState): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  const report: Report = (path, message) => issues.push({ in: 'body', path, message })
  const organizationIds = checkOrganizations(state.organizations, report)
  checkUsers(state.users, organizationIds, report)
  return issues
}

function checkOrganizations(organizations: Organization[], report: Report): Set<string> {
  const ids = new Map<string, string>()
  organizations.forEach((organization, index) => {
    checkUnique(ids, organization.id, `/organizations/${index}/id`, 'organization ids are unique', report)
  })
  return new Set(ids.keys())
}

function checkUsers(users: StoredUser[], organizationIds: Set<string>, report: Report): void {
  const ids = new Map<string, string>()
  const emails = new Map<string, string>()
  const tokens = new Map<string, string>()
  users.forEach((user, index) => {
    const at = `/users/${index}`
    checkUnique(ids, user.id, `${at}/id`, 'user ids are unique', report)
    // CONTRACT §1: emails are unique within the whole service, case-insensitively.
    checkUnique(emails, user.email.toLowerCase(), `${at}/email`, 'emails are unique, case-insensitively', report)
    checkName(user.name, `${at}/name`, report)
    if (!organizationIds.has(user.organizationId)) {
      report(`${at}/organizationId`, `names no organization of /organizations (${user.organizationId})`)
    }
    checkDates(user, at, report)
    if (user.token !== undefined) checkUnique(tokens, user.token, `${at}/token`, 'tokens are unique', report)
  })
}

/** Remembers where each key first appeared; a key seen before is reported against that place. */
function checkUnique(seen: Map<string, string>, key: string, path: string, rule: string, report: Report): void {
  const first = seen.get(key)
  if (first === undefined) seen.set(key, path)
  else report(path, `duplicates ${first} (${rule})`)
}

/** CONTRACT §1: stored trimmed, and a name once trimmed. */
function checkName(name: string, path: string, report: Report): void {
  const trimmed = name.trim()
  if (name !== trimmed) {
    report(path, `is not stored trimmed (names are stored without surrounding white space): ${JSON.stringify(trimmed)}`)
    return
  }
  const { problem } = checkUserName(trimmed)
  if (problem !== undefined) report(path, problem)
}

/** CONTRACT §1: `updatedAt >= createdAt`. */
function checkDates(user: StoredUser, at: string, report: Report): void {
  const createdAt = Date.parse(user.createdAt)
  const updatedAt = Date.parse(user.updatedAt)
  if (Number.isNaN(createdAt)) report(`${at}/createdAt`, 'is not a date the mock can represent')
  if (Number.isNaN(updatedAt)) report(`${at}/updatedAt`, 'is not a date the mock can represent')
  else if (updatedAt < createdAt) report(`${at}/updatedAt`, `is before ${at}/createdAt (updatedAt >= createdAt)`)
}

function normalizeState(state: MockState): MockState {
  return {
    organizations: state.organizations.map(({ id, name }) => ({ id, name })),
    users: state.users.map(toStoredUser),
  }
}

/** A fresh object in the resource's field order, with canonical dates. */
function toStoredUser(user: StoredUser): StoredUser {
  const { id, email, name, role, organizationId, status, token } = user
  const createdAt = new Date(user.createdAt).toISOString()
  const updatedAt = new Date(user.updatedAt).toISOString()
  const stored: StoredUser = { id, email, name, role, organizationId, status, createdAt, updatedAt }
  if (token !== undefined) stored.token = token
  return stored
}
