import type { TestContext } from 'vitest'
import { holdsTerm, type ApiUser, type Role } from './api-user.js'
import { listItems, type ListQuery } from './read-users.js'
import { expectRule, suite } from './suite.js'
import { DISPOSABLE_SLOTS } from '../../src/target/disposable-slots.js'
import { untilSteady } from './until-steady.js'
import type { Exchange } from '../../src/contract/client/exchange.js'

/**
 * CONTRACT §4 both ways: a filtered list is the whole list filtered by the rule, nobody missing and
 * nobody extra. The checks read the whole list and the filtered ones, and compare.
 */

export const FILTER_RULE =
  'role keeps the users of that role; search keeps the users whose name or email contains the term, ignoring case (docs/contract.md §4)'
/** Users a page: the contract's maximum. */
const PAGE = 100
/** Past this many pages (10,000 users), the whole list is too long to filter here: the check skips. */
const MAX_PAGES = 100

export interface Listing {
  users: ApiUser[]
  /** The last page read: what a report shows. */
  exchange: Exchange
  complete: boolean
}

export interface FilterReading {
  everyone: Listing
  answers: Array<{ query: ListQuery; listing: Listing }>
}

/**
 * The whole list and each query's answers, read again (other files change their users meanwhile) until
 * every answer is exact or the tries run out. Skips when the organization is too large to filter here.
 */
export async function readFilters(
  context: TestContext,
  queriesFor: (everyone: ApiUser[]) => ListQuery[],
): Promise<FilterReading> {
  const reading = await readFiltersSteadily(queriesFor)
  skipUnlessComplete(context, reading)
  return reading
}

/** Skips a check whose reading could not hold the whole list. */
export function skipUnlessComplete(context: TestContext, reading: FilterReading): void {
  if (!reading.everyone.complete) {
    context.skip(`the organization lists over ${MAX_PAGES * PAGE} users: too many to filter here`)
  }
}

/** readFilters without the skip: for a reading that several checks share. */
export async function readFiltersSteadily(queriesFor: (everyone: ApiUser[]) => ListQuery[]): Promise<FilterReading> {
  const read = async (): Promise<FilterReading> => {
    const everyone = await listAll({})
    const queries = queriesFor(everyone.users)
    const answers = await Promise.all(queries.map(async (query) => ({ query, listing: await listAll(query) })))
    return { everyone, answers }
  }
  return untilSteady(read, (found) =>
    found.answers.every(({ query, listing }) =>
      sameList(ids(comparable(listing.users)), ids(expectedFor(comparable(found.everyone.users), query))),
    ),
  )
}

/** Each answer holds exactly the users of the whole list who pass its query (in any order). */
export function expectExactAnswers(reading: FilterReading, after = ''): void {
  for (const { query, listing } of reading.answers) {
    const expected = ids(expectedFor(comparable(reading.everyone.users), query))
    const received = ids(comparable(listing.users))
    const missing = expected.filter((id) => !received.includes(id))
    const extra = received.filter((id) => !expected.includes(id))
    expectRule(
      listing.exchange,
      missing.length === 0 && extra.length === 0 && received.length === expected.length,
      FILTER_RULE,
      `Query${after ? ` ${after}` : ''}: ${JSON.stringify(query)}\nReceived: ${received.length} users\nExpected: ${expected.length} users\nMissing: [${missing.join(', ')}]\nNot passing the filter: [${extra.join(', ')}]`,
    )
  }
}

/**
 * Whether lower-casing a text depends on which of Unicode's mappings one applies: full (JavaScript's, with
 * final sigma and İ → i̇) or simple (Go's, some databases'). docs/contract.md §4 says "lower-cased"
 * and leaves open which one (§4.list.search.mapping), so users with such a name or email are left out of the
 * exact comparisons.
 */
export function hasSpecialCasing(text: string): boolean {
  return [...text].some((char) => char === 'Σ' || char.toLowerCase().length !== char.length)
}

/**
 * The disposable users the webhook checks rename, promote and delete in a thread of their own while these
 * comparisons read: between two reads of one comparison they may have changed, whatever the backend.
 */
const CHANGED_ALONGSIDE = new Set(
  suite.ownThreadForWaitingFiles
    ? [DISPOSABLE_SLOTS.webhookUpdate, DISPOSABLE_SLOTS.webhookDelete].flatMap(
        (slot) => suite.target.disposable[slot]?.id ?? [],
      )
    : [],
)

/**
 * The users the comparisons judge: those whose name and email lower-case alike under every mapping, and
 * not changed alongside by the webhook checks.
 */
export function comparable(users: ApiUser[]): ApiUser[] {
  return users.filter(
    (user) => !CHANGED_ALONGSIDE.has(user.id) && !hasSpecialCasing(user.name) && !hasSpecialCasing(user.email),
  )
}

/** A search term fit to send: not blank, at most 100 characters, whole code points, no special casing. */
export function isUsableTerm(term: string): boolean {
  return term.trim() !== '' && term.length <= 100 && !/[\uD800-\uDFFF]/.test(term) && !hasSpecialCasing(term)
}

/** The users of the whole list who pass a query, in its order. */
export function expectedFor(users: ApiUser[], query: ListQuery): ApiUser[] {
  const role = query['role'] as Role | undefined
  const term = query['search']
  return users.filter(
    (user) => (role === undefined || user.role === role) && (typeof term !== 'string' || holdsTerm(user, term)),
  )
}

/**
 * Search terms a text yields: its first character, a pair and a triple from its start and middle, and
 * itself; never empty, at most 100 characters, whole code points.
 */
export function termsOf(text: string): string[] {
  const middle = Math.max(0, Math.floor(text.length / 2) - 1)
  const terms = [text.slice(0, 1), text.slice(1, 3), text.slice(middle, middle + 3), text]
  return terms.filter(isUsableTerm)
}

export function ids(users: ApiUser[]): string[] {
  return users.map((user) => user.id)
}

export function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((id, index) => id === b[index])
}

/** Every page of a query, at the largest limit, until a page is not full (meta is not read: it is profile). */
async function listAll(query: ListQuery): Promise<Listing> {
  const users: ApiUser[] = []
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const { exchange, items } = await listItems('owner', { ...query, limit: PAGE, page })
    users.push(...items)
    if (items.length < PAGE) return { users, exchange, complete: true }
    if (page === MAX_PAGES) return { users, exchange, complete: false }
  }
  throw new Error('MAX_PAGES is at least 1.')
}
