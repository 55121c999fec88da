import { beforeAll, describe, expect, test } from 'vitest'
import type { MockState, StoredUser } from '../../src/domain/mock-state.js'
import { parseState } from '../../src/domain/parse-state.js'
import { AppError } from '../../src/errors.js'
import { generateState } from '../../src/seed/generate-state.js'
import { DEFAULT_FIXTURES_PATH, readFixtureFile } from '../../src/seed/read-fixtures.js'
import { loadSpec } from '../../src/spec/load-spec.js'
import { compileStateValidator, type StateValidator } from '../../src/spec/state-schema.js'

const ACME = 'org_acmeqqqqqqqqqqqqqqqq'
const GLOBEX = 'org_globexqqqqqqqqqqqqqq'
const INITECH = 'org_initechqqqqqqqqqqqqq'

let validate: StateValidator
let fixtures: MockState

beforeAll(async () => {
  validate = compileStateValidator((await loadSpec()).dereferenced)
  fixtures = await readFixtureFile(DEFAULT_FIXTURES_PATH, validate)
})

function findByToken(state: MockState, token: string): StoredUser | undefined {
  return state.users.find((user) => user.token === token)
}

function countBy<T>(items: T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>()
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1)
  return counts
}

function generatedUsers(state: MockState): StoredUser[] {
  return state.users.slice(fixtures.users.length)
}

describe('the default fixtures', () => {
  test('hold Acme, Globex and Initech with readable org_ + 20 base32 ids', () => {
    expect(fixtures.organizations.map((organization) => organization.id)).toEqual([ACME, GLOBEX, INITECH])
    for (const { id } of fixtures.organizations) expect(id).toMatch(/^org_[a-z2-7]{20}$/)
    for (const { id } of fixtures.users) expect(id).toMatch(/^usr_[a-z2-7]{20}$/)
  })

  test.each([
    ['owner-token', 'CLIENT_OWNER', 'ACTIVE', ACME],
    ['admin-token', 'CLIENT_ADMIN', 'ACTIVE', ACME],
    ['viewer-token', 'CLIENT_VIEWER', 'ACTIVE', ACME],
    ['bot-token', 'BOT_USER', 'ACTIVE', ACME],
    ['owner2-token', 'CLIENT_OWNER', 'ACTIVE', ACME],
    ['suspended-token', 'CLIENT_VIEWER', 'SUSPENDED', ACME],
    ['invited-token', 'CLIENT_VIEWER', 'INVITED', ACME],
    ['suspended-admin-token', 'CLIENT_ADMIN', 'SUSPENDED', ACME],
    ['outsider-token', 'CLIENT_OWNER', 'ACTIVE', GLOBEX],
    ['globex-admin-token', 'CLIENT_ADMIN', 'ACTIVE', GLOBEX],
    ['globex-viewer-token', 'CLIENT_VIEWER', 'ACTIVE', GLOBEX],
    ['initech-owner-token', 'CLIENT_OWNER', 'ACTIVE', INITECH],
  ])('%s is a %s %s user of %s', (token, role, status, organizationId) => {
    expect(findByToken(fixtures, token)).toMatchObject({ role, status, organizationId })
  })

  test('match the examples of openapi/users.yaml', () => {
    expect(findByToken(fixtures, 'owner-token')).toMatchObject({
      id: 'usr_acmeownerqqqqqqqqqqq',
      name: 'Olivia Owner',
      email: 'olivia.owner@acme.example',
      createdAt: '2024-01-08T09:00:00.000Z',
    })
    expect(findByToken(fixtures, 'admin-token')).toMatchObject({
      id: 'usr_acmeadminqqqqqqqqqqq',
      email: 'adam.admin@acme.example',
      createdAt: '2024-01-09T09:00:00.000Z',
    })
    expect(findByToken(fixtures, 'viewer-token')).toMatchObject({
      id: 'usr_acmeviewerqqqqqqqqqq',
      email: 'victor.viewer@acme.example',
      createdAt: '2024-01-10T09:00:00.000Z',
    })
  })

  test('give Acme every role and every status', () => {
    const acme = fixtures.users.filter((user) => user.organizationId === ACME)
    expect(new Set(acme.map((user) => user.role))).toEqual(
      new Set(['CLIENT_OWNER', 'CLIENT_ADMIN', 'CLIENT_VIEWER', 'BOT_USER']),
    )
    expect(new Set(acme.map((user) => user.status))).toEqual(new Set(['ACTIVE', 'INVITED', 'SUSPENDED']))
  })
})

describe('generateState', () => {
  test('the same seed gives a byte-identical state', () => {
    const first = generateState({ fixtures, seed: 42, usersPerOrganization: 200 })
    const second = generateState({ fixtures, seed: 42, usersPerOrganization: 200 })
    expect(JSON.stringify(second)).toBe(JSON.stringify(first))
  })

  test('a different seed gives a different state', () => {
    const first = generateState({ fixtures, seed: 1, usersPerOrganization: 20 })
    const second = generateState({ fixtures, seed: 2, usersPerOrganization: 20 })
    expect(JSON.stringify(second)).not.toBe(JSON.stringify(first))
  })

  test('adds usersPerOrganization users to each organization, after the fixtures, unchanged', () => {
    const state = generateState({ fixtures, seed: 3, usersPerOrganization: 25 })
    expect(state.users.slice(0, fixtures.users.length)).toEqual(fixtures.users)
    expect(state.organizations).toEqual(fixtures.organizations)
    expect(countBy(generatedUsers(state), (user) => user.organizationId)).toEqual(
      new Map([
        [ACME, 25],
        [GLOBEX, 25],
        [INITECH, 25],
      ]),
    )
  })

  test('with no generated users, is the fixtures', () => {
    expect(generateState({ fixtures, seed: 3, usersPerOrganization: 0 })).toEqual(fixtures)
  })

  test('does not mutate the fixtures', () => {
    const before = structuredClone(fixtures)
    generateState({ fixtures, seed: 4, usersPerOrganization: 10 })
    expect(fixtures).toEqual(before)
  })

  test('ids, emails (case-insensitively) and tokens are unique across the whole state', () => {
    const { users } = generateState({ fixtures, seed: 5, usersPerOrganization: 2000 })
    expect(new Set(users.map((user) => user.id)).size).toBe(users.length)
    expect(new Set(users.map((user) => user.email.toLowerCase())).size).toBe(users.length)
    expect(new Set(users.map((user) => user.token)).size).toBe(users.length)
  })

  test('generated users have the documented id, token and email shapes', () => {
    for (const user of generatedUsers(generateState({ fixtures, seed: 6, usersPerOrganization: 300 }))) {
      expect(user.id).toMatch(/^usr_[a-z2-7]{20}$/)
      expect(user.token).toMatch(/^tok_[a-z2-7]{24}$/)
      const domain = user.organizationId === ACME ? 'acme' : user.organizationId === GLOBEX ? 'globex' : 'initech'
      expect(user.email).toMatch(new RegExp(`^[a-z0-9.-]+\\.\\d+@${domain}\\.example$`))
    }
  })

  test('every generated user passes parseState, unchanged', () => {
    const state = generateState({ fixtures, seed: 7, usersPerOrganization: 1000 })
    expect(parseState(state, validate)).toEqual(state)
  })

  test('generated users join in 2024, after the fixtures, and never change before they join', () => {
    const latestFixture =
      fixtures.users
        .map((user) => user.createdAt)
        .sort()
        .at(-1) ?? ''
    for (const user of generatedUsers(generateState({ fixtures, seed: 8, usersPerOrganization: 500 }))) {
      expect(user.createdAt > latestFixture).toBe(true)
      expect(user.createdAt < '2025-01-01T00:00:00.000Z').toBe(true)
      expect(user.updatedAt >= user.createdAt).toBe(true)
      if (user.status === 'INVITED') expect(user.updatedAt).toBe(user.createdAt)
    }
  })

  test('mostly viewers, some admins, few bots, very few owners; mostly active', () => {
    const users = generatedUsers(generateState({ fixtures, seed: 9, usersPerOrganization: 3000 }))
    const share = (count: number | undefined) => (count ?? 0) / users.length
    const roles = countBy(users, (user) => user.role)
    const statuses = countBy(users, (user) => user.status)
    expect(share(roles.get('CLIENT_VIEWER'))).toBeGreaterThan(0.7)
    expect(share(roles.get('CLIENT_ADMIN'))).toBeGreaterThan(0.08)
    expect(share(roles.get('BOT_USER'))).toBeGreaterThan(0.02)
    expect(share(roles.get('CLIENT_OWNER'))).toBeGreaterThan(0)
    expect(share(roles.get('CLIENT_OWNER'))).toBeLessThan(0.03)
    expect(share(statuses.get('ACTIVE'))).toBeGreaterThan(0.75)
    expect(share(statuses.get('INVITED'))).toBeGreaterThan(0.05)
    expect(share(statuses.get('SUSPENDED'))).toBeGreaterThan(0.02)
  })

  test('rejects a negative or fractional count', () => {
    expect(() => generateState({ fixtures, seed: 1, usersPerOrganization: -1 })).toThrow(AppError)
    expect(() => generateState({ fixtures, seed: 1, usersPerOrganization: 1.5 })).toThrow(/usersPerOrganization/)
  })

  test('generates 100,000 users in one organization', () => {
    const acme = {
      organizations: [fixtures.organizations[0]!],
      users: fixtures.users.filter((user) => user.organizationId === ACME),
    }
    // How fast is the benchmark's question (BENCHMARKS.md), not a test's: a busy machine is no fault.
    const state = generateState({ fixtures: acme, seed: 10, usersPerOrganization: 100_000 })
    expect(state.users).toHaveLength(acme.users.length + 100_000)
  }, 30_000)
})
