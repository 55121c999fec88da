import { AppError, type ValidationIssue } from '../errors.js'
import { toValidationIssue } from '../spec/schema-issues.js'
import type { Validator } from '../spec/operation-table.js'
import type { MockState, StoredUser } from './mock-state.js'
import { checkUserName } from './user-name.js'
import type { Organization } from './user.js'

/** At most this many issues travel in `details.errors`; the message names the first. */
const MAX_ISSUES = 50

type Report = (path: string, message: string) => void

/** How many organizations or users one step checks: a step of a long load is a few milliseconds. */
const STEP_SIZE = 250

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
  const steps = parseStateInSteps(input, validate)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/**
 * {@link parseState} as steps of at most {@link STEP_SIZE} organizations or users, for a caller that lets
 * other work run between them (the server, while a large state loads). Same checks, same first problem:
 * the validator stops at the first error, and each step validates the next items in document order.
 */
export function* parseStateInSteps(input: unknown, validate: Validator): Generator<void, MockState> {
  const document = input as Partial<MockState> | null
  const organizations = Array.isArray(document?.organizations) ? document.organizations : undefined
  const users = Array.isArray(document?.users) ? document.users : undefined
  // The document without its items first: its own shape (an object, its keys, arrays where arrays go).
  const isObject = typeof input === 'object' && input !== null && !Array.isArray(input)
  const shell = isObject
    ? { ...document, ...(organizations ? { organizations: [] } : {}), ...(users ? { users: [] } : {}) }
    : input
  if (!validate(shell)) throw toInvalidState(schemaIssues(validate, 0))
  if (!organizations || !users) throw toInvalidState([])
  for (const [part, items] of [
    ['organizations', organizations],
    ['users', users],
  ] as const) {
    for (let offset = 0; offset < items.length; offset += STEP_SIZE) {
      const slice = { organizations: [], users: [], [part]: items.slice(offset, offset + STEP_SIZE) }
      if (!validate(slice)) throw toInvalidState(schemaIssues(validate, offset))
      yield
    }
  }
  const state = { organizations, users } as MockState
  const issues = yield* findRuleIssues(state)
  if (issues.length > 0) throw toInvalidState(issues)
  const normalized: MockState = { organizations: organizations.map(({ id, name }) => ({ id, name })), users: [] }
  for (let offset = 0; offset < users.length; offset += STEP_SIZE) {
    for (const user of state.users.slice(offset, offset + STEP_SIZE)) normalized.users.push(toStoredUser(user))
    yield
  }
  return normalized
}

/** The validator's error, its item index moved by `offset` (a step validates a slice of the items). */
function schemaIssues(validate: Validator, offset: number): ValidationIssue[] {
  return (validate.errors ?? []).map((error) => {
    const issue = toValidationIssue(error, 'body')
    const path = issue.path.replace(/^\/(organizations|users)\/(\d+)/, (_match, part: string, index: string) => {
      return `/${part}/${Number(index) + offset}`
    })
    return { ...issue, path }
  })
}

function toInvalidState(issues: ValidationIssue[]): AppError {
  const first = issues[0] ?? { in: 'body', path: '', message: 'is invalid' }
  const where = first.path === '' ? 'the root' : first.path
  return new AppError('VALIDATION_FAILED', `Invalid state at ${where}: ${first.message}`, {
    errors: issues.length > 0 ? issues.slice(0, MAX_ISSUES) : [first],
  })
}

/**
 * Document order: organizations, then each user field by field, so the first issue is the first problem.
 * At most {@link MAX_ISSUES} are kept: 100,000 duplicates must not cost 100,000 issues.
 */
function* findRuleIssues(state: MockState): Generator<void, ValidationIssue[]> {
  const issues: ValidationIssue[] = []
  const report: Report = (path, message) => {
    if (issues.length < MAX_ISSUES) issues.push({ in: 'body', path, message })
  }
  const organizationIds = checkOrganizations(state.organizations, report)
  const seen: SeenUserKeys = { ids: new Map(), emails: new Map(), tokens: new Map() }
  for (let offset = 0; offset < state.users.length; offset += STEP_SIZE) {
    checkUsers(state.users, offset, offset + STEP_SIZE, { organizationIds, seen, report })
    yield
  }
  return issues
}

function checkOrganizations(organizations: Organization[], report: Report): Set<string> {
  const ids = new Map<string, string>()
  organizations.forEach((organization, index) => {
    checkUnique(ids, organization.id, `/organizations/${index}/id`, 'organization ids are unique', report)
  })
  return new Set(ids.keys())
}

/** Where each user id, email and token first appeared, across the steps. */
interface SeenUserKeys {
  ids: Map<string, string>
  emails: Map<string, string>
  tokens: Map<string, string>
}

function checkUsers(
  users: StoredUser[],
  from: number,
  to: number,
  { organizationIds, seen, report }: { organizationIds: Set<string>; seen: SeenUserKeys; report: Report },
): void {
  for (let index = from; index < Math.min(to, users.length); index += 1) {
    const user = users[index] as StoredUser
    const at = `/users/${index}`
    checkUnique(seen.ids, user.id, `${at}/id`, 'user ids are unique', report)
    // CONTRACT §1: emails are unique within the whole service, case-insensitively.
    checkUnique(seen.emails, user.email.toLowerCase(), `${at}/email`, 'emails are unique, case-insensitively', report)
    checkName(user.name, `${at}/name`, report)
    if (!organizationIds.has(user.organizationId)) {
      report(`${at}/organizationId`, `names no organization of /organizations (${user.organizationId})`)
    }
    checkDates(user, at, report)
    if (user.token !== undefined) checkUnique(seen.tokens, user.token, `${at}/token`, 'tokens are unique', report)
  }
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

/** A fresh object in the resource's field order, with canonical dates. */
function toStoredUser(user: StoredUser): StoredUser {
  const { id, email, name, role, organizationId, status, token } = user
  const createdAt = new Date(user.createdAt).toISOString()
  const updatedAt = new Date(user.updatedAt).toISOString()
  const stored: StoredUser = { id, email, name, role, organizationId, status, createdAt, updatedAt }
  if (token !== undefined) stored.token = token
  return stored
}
