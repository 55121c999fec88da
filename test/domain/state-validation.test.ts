import { readFile } from 'node:fs/promises'
import { beforeAll, describe, expect, test } from 'vitest'
import { renderStateSchemaFile, STATE_SCHEMA_PATH } from '../../scripts/write-state-schema.js'
import type { MockState, StoredUser } from '../../src/domain/mock-state.js'
import { parseState } from '../../src/domain/parse-state.js'
import { AppError } from '../../src/errors.js'
import { DEFAULT_FIXTURES_PATH } from '../../src/seed/read-fixtures.js'
import { createAjv } from '../../src/spec/create-ajv.js'
import { loadSpec } from '../../src/spec/load-spec.js'
import { compileStateValidator, type StateValidator } from '../../src/spec/state-schema.js'

const ACME = 'org_acmeqqqqqqqqqqqqqqqq'
const GLOBEX = 'org_globexqqqqqqqqqqqqqq'

let validate: StateValidator

beforeAll(async () => {
  validate = compileStateValidator((await loadSpec()).dereferenced)
})

function buildUser(index: number, overrides: Partial<StoredUser> = {}): StoredUser {
  return {
    id: `usr_test${index}`,
    email: `user${index}@acme.example`,
    name: `User ${index}`,
    role: 'CLIENT_VIEWER',
    organizationId: ACME,
    status: 'ACTIVE',
    createdAt: '2024-01-08T09:00:00.000Z',
    updatedAt: '2024-01-08T09:00:00.000Z',
    token: `token-${index}`,
    ...overrides,
  }
}

function buildState(users: StoredUser[] = [0, 1, 2, 3].map((index) => buildUser(index))): MockState {
  return {
    organizations: [
      { id: ACME, name: 'Acme' },
      { id: GLOBEX, name: 'Globex' },
    ],
    users,
  }
}

/** The state with user `index` changed. */
function withUser(index: number, overrides: Record<string, unknown>): unknown {
  const state = buildState()
  return { ...state, users: state.users.map((user, at) => (at === index ? { ...user, ...overrides } : user)) }
}

function captureError(input: unknown): AppError {
  try {
    parseState(input, validate)
  } catch (error) {
    if (error instanceof AppError) return error
    throw error
  }
  throw new Error('parseState accepted the state')
}

function firstIssue(input: unknown): { path: string; message: string } {
  const error = captureError(input)
  expect(error.code).toBe('VALIDATION_FAILED')
  const issue = error.details.errors?.[0]
  expect(issue?.in).toBe('body')
  const where = issue?.path === '' ? 'the root' : issue?.path
  expect(error.message).toBe(`Invalid state at ${where}: ${issue?.message}`)
  return { path: issue?.path ?? '', message: issue?.message ?? '' }
}

describe('a valid state', () => {
  test('is accepted and returned equal', () => {
    expect(parseState(buildState(), validate)).toEqual(buildState())
  })

  test('may carry a $schema and users without a token', () => {
    const state = { $schema: '../schemas/mock-state.schema.json', ...buildState([buildUser(0, { token: undefined })]) }
    delete state.users[0]?.token
    expect(parseState(state, validate).users[0]).not.toHaveProperty('token')
  })

  test('comes back with canonical dates', () => {
    const input = withUser(0, { createdAt: '2024-01-08T09:00:00Z', updatedAt: '2024-01-08T09:00:00.5Z' })
    const user = parseState(input, validate).users[0]
    expect(user?.createdAt).toBe('2024-01-08T09:00:00.000Z')
    expect(user?.updatedAt).toBe('2024-01-08T09:00:00.500Z')
  })

  test('is not mutated, and the result shares no object with it', () => {
    const input = withUser(0, { createdAt: '2024-01-08T09:00:00Z' })
    const before = structuredClone(input)
    const state = parseState(input, validate)
    expect(input).toEqual(before)
    expect(state.users[0]).not.toBe((input as MockState).users[0])
  })

  test('the default fixtures are one', async () => {
    const fixtures: unknown = JSON.parse(await readFile(DEFAULT_FIXTURES_PATH, 'utf8'))
    expect(parseState(fixtures, validate).users.length).toBeGreaterThan(0)
  })
})

describe('the schema rejects, with the path of the problem', () => {
  test('a state that is not an object', () => {
    expect(firstIssue([])).toEqual({ path: '', message: 'must be object' })
  })

  test('a missing users array', () => {
    expect(firstIssue({ organizations: [] }).path).toBe('/users')
  })

  test('a misspelt user field (state users take the User fields and token only)', () => {
    expect(firstIssue(withUser(2, { tokn: 'x' }))).toEqual({
      path: '/users/2/tokn',
      message: 'is not a known property (check its spelling)',
    })
  })

  test('an unknown organization field', () => {
    const state = buildState()
    expect(firstIssue({ ...state, organizations: [{ id: ACME, name: 'Acme', plan: 'pro' }] }).path).toBe(
      '/organizations/0/plan',
    )
  })

  test('an unknown role, listing the allowed ones', () => {
    const { path, message } = firstIssue(withUser(1, { role: 'client_viewer' }))
    expect(path).toBe('/users/1/role')
    expect(message).toContain('CLIENT_VIEWER')
  })

  test('an invalid email', () => {
    expect(firstIssue(withUser(3, { email: 'not an email' })).path).toBe('/users/3/email')
  })

  test('a date with an offset instead of Z', () => {
    expect(firstIssue(withUser(1, { createdAt: '2024-01-08T10:00:00+01:00' })).path).toBe('/users/1/createdAt')
  })

  test('an empty token', () => {
    expect(firstIssue(withUser(1, { token: '' })).path).toBe('/users/1/token')
  })

  test('a user without an email', () => {
    const state = buildState()
    const withoutEmail: Partial<StoredUser> = buildUser(1)
    delete withoutEmail.email
    expect(firstIssue({ ...state, users: [state.users[0], withoutEmail] })).toEqual({
      path: '/users/1/email',
      message: 'is required',
    })
  })
})

describe('the rules reject, with the path of the first problem', () => {
  test('a duplicate organization id', () => {
    const state = buildState()
    const organizations = [...state.organizations, { id: ACME, name: 'Acme again' }]
    expect(firstIssue({ ...state, organizations })).toEqual({
      path: '/organizations/2/id',
      message: 'duplicates /organizations/0/id (organization ids are unique)',
    })
  })

  test('a duplicate user id', () => {
    expect(firstIssue(withUser(2, { id: 'usr_test0' }))).toEqual({
      path: '/users/2/id',
      message: 'duplicates /users/0/id (user ids are unique)',
    })
  })

  test('a duplicate email, case-insensitively, across organizations', () => {
    expect(firstIssue(withUser(3, { email: 'USER1@Acme.Example', organizationId: GLOBEX }))).toEqual({
      path: '/users/3/email',
      message: 'duplicates /users/1/email (emails are unique, case-insensitively)',
    })
  })

  test('a duplicate token', () => {
    expect(firstIssue(withUser(3, { token: 'token-0' }))).toEqual({
      path: '/users/3/token',
      message: 'duplicates /users/0/token (tokens are unique)',
    })
  })

  test('a user of an unknown organization', () => {
    const { path, message } = firstIssue(withUser(1, { organizationId: 'org_nowhereqqqqqqqqqqqqq' }))
    expect(path).toBe('/users/1/organizationId')
    expect(message).toContain('org_nowhereqqqqqqqqqqqqq')
  })

  test('updatedAt before createdAt', () => {
    expect(firstIssue(withUser(2, { updatedAt: '2024-01-08T08:59:59.999Z' }))).toEqual({
      path: '/users/2/updatedAt',
      message: 'is before /users/2/createdAt (updatedAt >= createdAt)',
    })
  })

  test('a name not stored trimmed', () => {
    const { path, message } = firstIssue(withUser(1, { name: ' Ada Lovelace ' }))
    expect(path).toBe('/users/1/name')
    expect(message).toContain('trimmed')
  })

  test('a name of white space only', () => {
    expect(firstIssue(withUser(1, { name: '\u00a0\u3000' })).path).toBe('/users/1/name')
  })

  test('a name over 100 code points, while 100 astral code points pass', () => {
    expect(parseState(withUser(1, { name: '😀'.repeat(100) }), validate).users[1]?.name).toBe('😀'.repeat(100))
    expect(firstIssue(withUser(1, { name: 'a'.repeat(101) })).path).toBe('/users/1/name')
  })

  test('reports the first problem in document order, and lists the others', () => {
    const state = buildState([
      buildUser(0),
      buildUser(1, { updatedAt: '2023-01-01T00:00:00.000Z' }),
      buildUser(2, { email: 'user0@acme.example' }),
    ])
    const error = captureError(state)
    expect(error.details.errors?.map((issue) => issue.path)).toEqual(['/users/1/updatedAt', '/users/2/email'])
  })
})

describe('the published schema', () => {
  test('schemas/mock-state.schema.json is what scripts/write-state-schema.ts writes (run it if this fails)', async () => {
    expect(await readFile(STATE_SCHEMA_PATH, 'utf8')).toBe(await renderStateSchemaFile())
  })

  test('accepts the default fixtures and rejects a misspelt field', async () => {
    const validatePublished = createAjv().compile(JSON.parse(await readFile(STATE_SCHEMA_PATH, 'utf8')) as object)
    const fixtures: unknown = JSON.parse(await readFile(DEFAULT_FIXTURES_PATH, 'utf8'))
    expect(validatePublished(fixtures)).toBe(true)
    expect(validatePublished(withUser(0, { organisationId: ACME }))).toBe(false)
  })
})
