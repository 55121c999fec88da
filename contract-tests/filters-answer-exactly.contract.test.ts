import { describe, test, type TestContext } from 'vitest'
import { ROLES, type ApiUser, type Role } from './support/api-user.js'
import { covers } from './support/covers.js'
import { listItems, type ListQuery } from './support/read-users.js'
import { expectRule, needActor } from './support/suite.js'
import { untilSteady } from './support/until-steady.js'
import type { Exchange } from '../src/contract/exchange.js'

// CONTRACT §4, both directions: the role filter and the search answer every user who passes them and
// nobody else, in list order. The expected answer is the whole list filtered here, by the rule; the
// terms are taken from the users themselves (short and long, at the start, the middle and the end of
// names and emails, in the other case), so that an index that loses or keeps a user shows. Read-only.

const RULE =
  'role keeps the users of that role; search keeps the users whose name or email contains the term, ignoring case (docs/contract.md §4)'
const ORDER_RULE = 'Every list is in one order, createdAt then id, filtered or not (docs/contract.md §4)'
/** Users a page: the contract's maximum. */
const PAGE = 100
/** Past this many pages (10,000 users), the whole list is too long to filter here: the check skips. */
const MAX_PAGES = 100

interface Reading {
  everyone: Listing
  answers: Array<{ query: ListQuery; listing: Listing }>
}

interface Listing {
  users: ApiUser[]
  /** The last page read: what a report shows. */
  exchange: Exchange
  complete: boolean
}

describe('filters answer exactly the users who pass them (docs/contract.md §4)', () => {
  test(
    '[core] role=, search= and both together answer exactly the users of the whole list who pass them',
    covers('§4.list.role', '§4.list.search'),
    async (context) => {
      needActor(context, 'owner')
      const reading = await readSteadily(context)
      for (const { query, listing } of reading.answers) {
        const expected = expectedFor(reading.everyone.users, query).map((user) => user.id)
        const received = listing.users.map((user) => user.id)
        const missing = expected.filter((id) => !received.includes(id))
        const extra = received.filter((id) => !expected.includes(id))
        expectRule(
          listing.exchange,
          missing.length === 0 && extra.length === 0 && received.length === expected.length,
          RULE,
          `Query: ${JSON.stringify(query)}\nReceived: ${received.length} users\nExpected: ${expected.length} users\nMissing: [${missing.join(', ')}]\nNot passing the filter: [${extra.join(', ')}]`,
        )
      }
    },
  )

  test('[profile] a filtered answer keeps the order of the whole list', covers('§4.list.order'), async (context) => {
    needActor(context, 'owner')
    const reading = await readSteadily(context)
    for (const { query, listing } of reading.answers) {
      const received = listing.users.map((user) => user.id)
      const expected = expectedFor(reading.everyone.users, query).map((user) => user.id)
      expectRule(
        listing.exchange,
        sameList(received, expected),
        ORDER_RULE,
        `Query: ${JSON.stringify(query)}\nReceived: [${received.join(', ')}]\nExpected: [${expected.join(', ')}]`,
      )
    }
  })
})

/** One reading for both checks of this file, taken again while other files' changes make it disagree. */
let steady: Promise<Reading> | undefined

async function readSteadily(context: TestContext): Promise<Reading> {
  steady ??= untilSteady(read, (found) => found.answers.every((answer) => isExact(found, answer)))
  const reading = await steady
  if (!reading.everyone.complete) {
    context.skip(`the organization lists over ${MAX_PAGES * PAGE} users: too many to filter here`)
  }
  return reading
}

async function read(): Promise<Reading> {
  const everyone = await listAll({})
  const terms = termsFrom(everyone.users)
  const queries: ListQuery[] = [
    ...ROLES.map((role) => ({ role })),
    ...terms.map((search) => ({ search })),
    ...terms.slice(0, 3).flatMap((search) => ROLES.map((role) => ({ role, search }))),
  ]
  const answers = await Promise.all(queries.map(async (query) => ({ query, listing: await listAll(query) })))
  return { everyone, answers }
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

/**
 * Terms of 1, 2, 3, 4 and more characters from three users (the first, the middle and the last of the
 * list): the start, the middle and the end of a name, parts of an email, one in the other case.
 */
function termsFrom(users: ApiUser[]): string[] {
  const chosen = [users[0], users[Math.floor(users.length / 2)], users.at(-1)].filter((user) => user !== undefined)
  const terms = chosen.flatMap(({ name, email }) => {
    const [local = '', domain = ''] = email.split('@')
    return [
      name.slice(0, 1),
      name.slice(1, 3),
      middle(name, 3),
      name.slice(-4).toUpperCase(),
      name,
      local.slice(0, 5),
      middle(local, 2),
      `@${domain}`,
    ]
  })
  // Whole code points only, never empty, at most the 100 characters search takes.
  return [...new Set(terms.filter((term) => term.trim() !== '' && term.length <= 100 && !/[\uD800-\uDFFF]/.test(term)))]
}

function middle(text: string, length: number): string {
  const start = Math.max(0, Math.floor((text.length - length) / 2))
  return text.slice(start, start + length)
}

function expectedFor(users: ApiUser[], query: ListQuery): ApiUser[] {
  const role = query['role'] as Role | undefined
  const term = typeof query['search'] === 'string' ? query['search'].toLowerCase() : undefined
  return users.filter(
    (user) =>
      (role === undefined || user.role === role) &&
      (term === undefined || user.name.toLowerCase().includes(term) || user.email.toLowerCase().includes(term)),
  )
}

/** Whether an answer is the whole list filtered, in its order: a reading to trust. */
function isExact(reading: Reading, answer: Reading['answers'][number]): boolean {
  const expected = expectedFor(reading.everyone.users, answer.query).map((user) => user.id)
  return sameList(
    answer.listing.users.map((user) => user.id),
    expected,
  )
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((id, index) => id === b[index])
}
