import { describe, type TestContext } from 'vitest'
import { holdsTerm, ROLES, type ApiUser } from './support/api-user.js'
import { covers } from './support/covers.js'
import {
  comparable,
  expectExactAnswers,
  FILTER_RULE,
  expectedFor,
  ids,
  isUsableTerm,
  readFiltersSteadily,
  sameList,
  skipUnlessComplete,
  termsOf,
  type FilterReading,
} from './support/exact-filters.js'
import { listItems, type ListQuery } from './support/read-users.js'
import { untilSteady } from './support/until-steady.js'
import { expectRule, needActor, test } from './support/suite.js'

// CONTRACT §4, both directions: the role filter and the search answer every user who passes them and
// nobody else, in list order. The expected answer is the whole list filtered here, by the rule; the
// terms are taken from the users themselves (short and long, from names and emails, in the other case),
// so that an index that loses or keeps a user shows. Read-only.

const ORDER_RULE = 'Every list is in one order, createdAt then id, filtered or not (docs/contract.md §4)'

describe('filters answer exactly the users who pass them (docs/contract.md §4)', () => {
  test(
    '[core] role=, search= and both together answer exactly the users of the whole list who pass them',
    covers('§4.list.role', '§4.list.search'),
    async (context) => {
      needActor(context, 'owner')
      expectExactAnswers(await readOnce(context))
    },
  )

  test('[profile] a filtered answer keeps the order of the whole list', covers('§4.list.order'), async (context) => {
    needActor(context, 'owner')
    const reading = await readOnce(context)
    for (const { query, listing } of reading.answers) {
      const received = ids(comparable(listing.users))
      const expected = ids(expectedFor(comparable(reading.everyone.users), query))
      expectRule(
        listing.exchange,
        sameList(received, expected),
        ORDER_RULE,
        `Query: ${JSON.stringify(query)}\nReceived: [${received.join(', ')}]\nExpected: [${expected.join(', ')}]`,
      )
    }
  })
})

describe('a filtered list is paged after it is filtered (docs/contract.md §4)', () => {
  test(
    '[core] the first pages of role= and search= at a small limit hold the users who pass, wherever they sit in the whole list',
    covers('§4.list.role', '§4.list.search'),
    async (context) => {
      needActor(context, 'owner')
      const everyone = (await readOnce(context)).everyone.users
      // Queries the first user of the whole list does not pass: a backend that cuts a page of the
      // whole list and then filters it answers none of these users on page 1.
      const queries = pagedQueries(everyone)
      if (queries.length === 0) return context.skip('the organization lists too few users to page a filtered list')
      const read = async () => {
        const whole = (await readFiltersSteadily(() => [])).everyone.users
        const pages = await Promise.all(
          queries.flatMap((query) =>
            [1, 2].map(async (page) => ({ query, page, ...(await listItems('owner', { ...query, page })) })),
          ),
        )
        return { whole, pages }
      }
      const found = await untilSteady(read, ({ whole, pages }) => pages.every((page) => isExactPage(whole, page)))
      for (const page of found.pages) {
        const expected = pageOf(found.whole, page)
        const received = ids(page.items)
        expectRule(
          page.exchange,
          isExactPage(found.whole, page),
          `${FILTER_RULE}; a filtered list is paged after filtering, in the order of the whole list`,
          `Query: ${JSON.stringify(page.query)}, page ${page.page}\nReceived: [${received.join(', ')}]\nExpected: [${expected.join(', ')}] (the whole list filtered, then cut into pages of ${String(page.query.limit)})`,
        )
      }
    },
  )
})

/** A small limit: the first two pages of a filtered answer. */
const SMALL_LIMIT = 2

/**
 * Role filters and search terms (from users of the second half of the whole list) that the first user
 * of the whole list does not pass, at a limit of 2. A term that a user whose name lower-cases
 * differently under Unicode's mappings might hold is left out (see hasSpecialCasing).
 */
function pagedQueries(users: ApiUser[]): ListQuery[] {
  const first = users[0]
  if (!first || users.length < 2 * SMALL_LIMIT + 1) return []
  const later = comparable(users.slice(Math.floor(users.length / 2)))
  const special = users.filter((user) => comparable([user]).length === 0)
  const roles = ROLES.filter((role) => role !== first.role && users.some((user) => user.role === role))
  const terms = [later[0], later.at(-1)]
    .filter((user) => user !== undefined)
    .flatMap((user) => [...termsOf(user.name), ...termsOf(user.email.split('@')[0] ?? '')])
    .filter((term) => !holdsTerm(first, term) && !special.some((user) => mightHold(user, term)))
  return [...roles.map((role) => ({ role })), ...[...new Set(terms)].slice(0, 3).map((search) => ({ search }))].map(
    (query) => ({ ...query, limit: SMALL_LIMIT }),
  )
}

/** The ids a page of a filtered query should hold: the whole list filtered, then cut into pages. */
function pageOf(whole: ApiUser[], { query, page }: { query: ListQuery; page: number }): string[] {
  const limit = Number(query.limit)
  return ids(expectedFor(whole, query).slice((page - 1) * limit, page * limit))
}

function isExactPage(whole: ApiUser[], page: { query: ListQuery; page: number; items: ApiUser[] }): boolean {
  return sameList(ids(page.items), pageOf(whole, page))
}

/** Whether a user holds the term under any lower-casing: letters compared without their marks. */
function mightHold(user: ApiUser, term: string): boolean {
  const loose = (text: string): string =>
    text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replaceAll('ς', 'σ')
  return loose(`${user.name}\n${user.email}`).includes(loose(term))
}

/** One reading for both checks of this file. */
let reading: Promise<FilterReading> | undefined

async function readOnce(context: TestContext): Promise<FilterReading> {
  reading ??= readFiltersSteadily(queriesFor)
  const found = await reading
  skipUnlessComplete(context, found)
  return found
}

/** Every role; terms from three users (the first, the middle and the last): alone, and with each role. */
function queriesFor(everyone: ApiUser[]): ListQuery[] {
  const users = comparable(everyone)
  const chosen = [users[0], users[Math.floor(users.length / 2)], users.at(-1)].filter((user) => user !== undefined)
  const terms = [
    ...new Set(
      chosen.flatMap(({ name, email }) => {
        const [local = '', domain = ''] = email.split('@')
        return [...termsOf(name), name.slice(-4).toUpperCase(), ...termsOf(local).slice(1), `@${domain}`]
      }),
    ),
  ].filter(isUsableTerm)
  return [
    ...ROLES.map((role) => ({ role })),
    ...terms.map((search) => ({ search })),
    ...nearMisses(users).map((search) => ({ search })),
    ...terms.slice(0, 3).flatMap((search) => ROLES.map((role) => ({ role, search }))),
  ]
}

/**
 * Up to three terms of four characters that nobody's name or email holds, though each of their two
 * three-character halves someone's does: a search through an index of parts must still check the whole.
 */
function nearMisses(users: ApiUser[]): string[] {
  const texts = users.flatMap((user) => [user.name.toLowerCase(), user.email.toLowerCase()])
  const byStart = new Map<string, Set<string>>()
  for (const text of texts) {
    for (let start = 0; start + 3 <= text.length; start += 1) {
      const gram = text.slice(start, start + 3)
      if (/[\s\uD800-\uDFFF]/.test(gram)) continue
      const grams = byStart.get(gram.slice(0, 2)) ?? new Set<string>()
      byStart.set(gram.slice(0, 2), grams.add(gram))
    }
  }
  const found: string[] = []
  for (const grams of byStart.values()) {
    for (const gram of grams) {
      for (const next of byStart.get(gram.slice(1)) ?? []) {
        const term = gram + next.slice(2)
        if (!texts.some((text) => text.includes(term))) found.push(term)
        if (found.length === 3) return found
      }
    }
  }
  return found
}
