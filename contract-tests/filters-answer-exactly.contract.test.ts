import { describe, test, type TestContext } from 'vitest'
import { ROLES, type ApiUser } from './support/api-user.js'
import { covers } from './support/covers.js'
import {
  comparable,
  expectExactAnswers,
  expectedFor,
  ids,
  isUsableTerm,
  readFiltersSteadily,
  sameList,
  skipUnlessComplete,
  termsOf,
  type FilterReading,
} from './support/exact-filters.js'
import type { ListQuery } from './support/read-users.js'
import { expectRule, needActor } from './support/suite.js'

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
