import type { Faker, LocaleDefinition } from '@faker-js/faker'
import { faker as englishFaker } from '@faker-js/faker/locale/en'
import type { MockState, StoredUser } from '../domain/mock-state.js'
import type { Organization, Role, Status } from '../domain/user.js'
import { AppError } from '../errors.js'

export interface GenerateStateOptions {
  /** The named part of the state, already checked by `parseState`; kept as is, generated users come after. */
  fixtures: MockState
  /** Same seed, same fixtures, same count: byte-identical state. */
  seed: number
  /** Generated users added to EACH organization of the fixtures. */
  usersPerOrganization: number
}

const BASE32_CODES = [...'abcdefghijklmnopqrstuvwxyz234567'].map((character) => character.charCodeAt(0))
/** Generated dates are before it, unless the fixtures' own dates reach past it; the same for every run, never the clock. */
const REFERENCE_DATE = '2025-01-01T00:00:00.000Z'
const YEAR_START = '2024-01-01T00:00:00.000Z'
const MINUTE = 60_000
const MONTH = 30 * 24 * 60 * MINUTE

// Mostly viewers, some admins, few bots, very few extra owners; mostly active.
const ROLE_WEIGHTS: Array<{ weight: number; value: Role }> = [
  { weight: 80, value: 'CLIENT_VIEWER' },
  { weight: 14, value: 'CLIENT_ADMIN' },
  { weight: 5, value: 'BOT_USER' },
  { weight: 1, value: 'CLIENT_OWNER' },
]
const STATUS_WEIGHTS: Array<{ weight: number; value: Status }> = [
  { weight: 85, value: 'ACTIVE' },
  { weight: 10, value: 'INVITED' },
  { weight: 5, value: 'SUSPENDED' },
]

/** What every generated user must avoid, and where the generation stands. */
interface Generation {
  faker: Faker
  /**
   * faker.person.lastName() goes through a template (for double-barrelled names) and costs ~3 µs, as
   * much as the rest of a user; picking from the locale's list is ten times cheaper.
   */
  lastNames: readonly string[]
  ids: Set<string>
  emails: Set<string>
  tokens: Set<string>
  sequence: number
  from: number
  to: number
}

/**
 * The initial state of the mock: the fixtures, then `usersPerOrganization` faker users in each of their
 * organizations. Deterministic: its own Faker seeded with `seed`, dates between the fixtures' last
 * `createdAt` and a fixed reference date, never the clock. Ids, emails (case-insensitively) and tokens
 * are unique across the whole state, fixtures included. The fixtures are not mutated.
 *
 * @example
 * const fixtures = await readFixtureFile(DEFAULT_FIXTURES_PATH, validateState)
 * const state = generateState({ fixtures, seed: 1, usersPerOrganization: 50 })
 */
export function generateState(options: GenerateStateOptions): MockState {
  const { organizations, users } = streamState(options)
  return { organizations, users: [...users] }
}

/**
 * {@link generateState}'s state with users made as they are read, once: a store filled from it holds each
 * user once, and no array of 100,000 seed users lives beside it while it fills (what V8 sees survive while
 * seeding sizes its young generation: 128 MiB of resident memory, against 64, for 100,000 users).
 *
 * @example
 * const store = new UserStore(streamState({ fixtures, seed: 1, usersPerOrganization: 100_000 }))
 */
export function streamState({ fixtures, seed, usersPerOrganization }: GenerateStateOptions): {
  organizations: Organization[]
  users: Iterable<StoredUser>
} {
  assertInteger('seed', seed, Number.MIN_SAFE_INTEGER)
  assertInteger('usersPerOrganization', usersPerOrganization, 0)
  return {
    organizations: fixtures.organizations.map((organization) => ({ ...organization })),
    users: generateUsers(startGeneration(fixtures, seed), fixtures, usersPerOrganization),
  }
}

function* generateUsers(
  generation: Generation,
  fixtures: MockState,
  usersPerOrganization: number,
): Generator<StoredUser> {
  for (const user of fixtures.users) yield { ...user }
  for (const organization of fixtures.organizations) {
    const domain = toEmailDomain(organization)
    for (let count = 0; count < usersPerOrganization; count++) yield generateUser(generation, organization, domain)
  }
}

function assertInteger(name: string, value: number, minimum: number): void {
  if (!Number.isSafeInteger(value) || value < minimum) {
    throw new AppError('VALIDATION_FAILED', `${name} must be an integer >= ${minimum}, not ${value}.`)
  }
}

/**
 * A Faker of the generation's own, with English and the base data (as `new Faker({ locale: [en, base] })`),
 * taken from faker's English entry point: its main entry re-exports every locale, ~70 of them with a Faker
 * each, which Node loads whole (~120 ms and ~14 MiB of heap kept for the mock's life, read by nothing).
 */
function createFaker(seed: number): Faker {
  const FakerOfTheLocale = englishFaker.constructor as new (options: {
    locale: LocaleDefinition
    seed: number
  }) => Faker
  return new FakerOfTheLocale({ locale: englishFaker.rawDefinitions, seed })
}

function startGeneration(fixtures: MockState, seed: number): Generation {
  const faker = createFaker(seed)
  faker.setDefaultRefDate(REFERENCE_DATE)
  // Generated users join after the named ones, so that the fixtures come first in the list order.
  const latest = fixtures.users.reduce((max, user) => Math.max(max, Date.parse(user.createdAt)), Date.parse(YEAR_START))
  const from = latest + MINUTE
  return {
    faker,
    lastNames: faker.definitions.person.last_name.generic ?? [],
    ids: new Set(fixtures.users.map((user) => user.id)),
    emails: new Set(fixtures.users.map((user) => user.email.toLowerCase())),
    tokens: new Set(fixtures.users.flatMap((user) => (user.token === undefined ? [] : [user.token]))),
    sequence: 0,
    from,
    to: Math.max(Date.parse(REFERENCE_DATE) - 1, from + MONTH),
  }
}

function generateUser(generation: Generation, organization: Organization, domain: string): StoredUser {
  const { faker } = generation
  const role = faker.helpers.weightedArrayElement(ROLE_WEIGHTS)
  const status = faker.helpers.weightedArrayElement(STATUS_WEIGHTS)
  const { name, localPart } = role === 'BOT_USER' ? generateBotName(faker) : generatePersonName(generation)
  const createdAt = faker.number.int({ min: generation.from, max: generation.to })
  const createdAtText = new Date(createdAt).toISOString()
  // The draws in this order, the same for the same seed: id, then updatedAt, then the token.
  const id = takeUnique(generation.ids, () => generateBase32(faker, 'usr_', 20))
  const email = takeUniqueEmail(generation, localPart, domain)
  const updatedAt = generateUpdatedAt(generation, status, createdAt)
  return {
    id,
    email,
    name,
    role,
    organizationId: organization.id,
    status,
    createdAt: createdAtText,
    // One string for both dates of a user never changed (most of them): 100,000 users hold ~70,000 fewer.
    updatedAt: updatedAt === createdAt ? createdAtText : new Date(updatedAt).toISOString(),
    token: takeUnique(generation.tokens, () => generateBase32(faker, 'tok_', 24)),
  }
}

function generatePersonName({ faker, lastNames }: Generation): { name: string; localPart: string } {
  const first = faker.person.firstName()
  const last = lastNames.length > 0 ? faker.helpers.arrayElement(lastNames) : faker.person.lastName()
  return { name: [first, last].join(' '), localPart: `${toSlug(first) || 'user'}.${toSlug(last) || 'user'}` }
}

function generateBotName(faker: Faker): { name: string; localPart: string } {
  const noun = faker.hacker.noun()
  return { name: [noun.charAt(0).toUpperCase(), noun.slice(1), ' Bot'].join(''), localPart: `${toSlug(noun)}-bot` }
}

/** An invited user never changed; a suspended one was changed after joining; some active ones too. */
function generateUpdatedAt({ faker, to }: Generation, status: Status, createdAt: number): number {
  if (status === 'INVITED') return createdAt
  if (status === 'ACTIVE' && faker.datatype.boolean({ probability: 0.7 })) return createdAt
  return faker.number.int({ min: Math.min(createdAt + MINUTE, to), max: to })
}

/** CONTRACT §1: emails are unique service-wide, case-insensitively; the sequence number sees to it. */
function takeUniqueEmail(generation: Generation, localPart: string, domain: string): string {
  return takeUnique(generation.emails, () => [localPart, '.', ++generation.sequence, '@', domain].join(''))
}

function takeUnique(used: Set<string>, generate: () => string): string {
  let value = generate()
  while (used.has(value)) value = generate()
  used.add(value)
  return value
}

/**
 * A prefix and lowercase base32 from 25-bit draws: one faker call per 5 characters, and one flat string
 * built from char codes (a string grown by `+=` is a rope that every Set lookup must flatten first).
 */
function generateBase32(faker: Faker, prefix: string, length: number): string {
  const codes = Array.from(prefix, (character) => character.charCodeAt(0))
  for (let draws = Math.ceil(length / 5); draws > 0; draws--) {
    let bits = faker.number.int({ max: 2 ** 25 - 1 })
    for (let index = 0; index < 5; index++, bits >>>= 5) codes.push(BASE32_CODES[bits & 31] ?? 0)
  }
  return String.fromCharCode(...codes.slice(0, prefix.length + length))
}

function toEmailDomain(organization: Organization): string {
  return `${toSlug(organization.name) || toSlug(organization.id)}.example`
}

/** `O'Keefe` → `o-keefe`, `Zoë` → `zoe`: what an email local part or a domain label takes. */
function toSlug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}
