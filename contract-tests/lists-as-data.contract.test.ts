import { describe } from 'vitest'
import type { DisposableUser } from '../src/contract/target/target.js'
import { holdsTerm, userOf, type ApiUser, type PageMeta } from './support/api-user.js'
import { covers } from './support/covers.js'
import { comparable, expectedFor, expectExactAnswers, ids, readFilters, termsOf } from './support/exact-filters.js'
import { readDisposable } from './support/disposable-user.js'
import { listUsers, type ListQuery } from './support/read-users.js'
import { prepareDisposable } from './support/restore-user.js'
import {
  DISPOSABLE_SLOTS,
  expectRule,
  expectStatus,
  send,
  SLOTS_OF_THE_WAITING_FILES,
  suite,
  test,
} from './support/suite.js'
import { untilSteady } from './support/until-steady.js'
import { randomText, userPath } from './support/user-paths.js'

// CONTRACT §4: the list's parameters are data. A search term is text, whatever its characters mean to a
// regular expression or to SQL's LIKE, and meta counts what is there after every kind of change. This
// file's two disposable users: one renamed, promoted and suspended (then put back), one deleted.
// Sequential: the checks change the same users.

const RULE_SEARCH = 'search keeps the users whose name or email contains the term, as plain text (docs/contract.md §4)'
const RULE_AS_SENT =
  'search takes the term as sent, not trimmed: white space alone is a term like any other, not "no filter" (docs/contract.md §4)'
const RULE_META =
  'meta counts all matching users after every change: total, totalPages = ceil(total / limit) (docs/contract.md §4)'

/** Characters with a meaning in regular expressions, LIKE patterns or URLs: to the API, just text. */
const META_NAME = `Meta .+*?[(\\%_ ${randomText(6)}`
/** Terms that only META_NAME holds: exactly one match. */
const UNIQUE_TERMS = ['.+*?[(', '*?[(\\%', '(\\%_', '+*?', '[(']
/** Terms many users hold, or that a pattern reads as "anything": each match must hold them literally. */
const COMMON_TERMS = ['.', '%', '_', '\\', '(', '*', '?', '[']

describe('search terms are text, whatever their characters mean elsewhere', () => {
  test(
    '[core] a term of . + * ? [ ( \\ % _ finds exactly the users whose name or email holds it, beyond the first page of the whole list too',
    covers('§4.list.search'),
    async (context) => {
      const user = await prepareDisposable(context, 'listsAsData')
      const renamed = await patch(user, { name: META_NAME })
      for (const term of UNIQUE_TERMS) {
        const page = await listUsers('owner', { search: term, limit: 100 })
        const ids = page.items.map((item) => item.id)
        expectRule(
          page.exchange,
          ids.length === 1 && ids[0] === user.id && page.meta.total === 1,
          RULE_SEARCH,
          `Received: total ${page.meta.total}, [${ids.join(', ')}]\nExpected: exactly ${user.id}, the one user named ${JSON.stringify(renamed.name)}`,
        )
      }
      for (const term of [...COMMON_TERMS, `M.ta ${META_NAME.slice(-6)}`, `Meta _${META_NAME.slice(-6)}`]) {
        const page = await listUsers('owner', { search: term, limit: 100 })
        const stray = page.items.filter((item) => !holdsTerm(item, term))
        expectRule(
          page.exchange,
          stray.length === 0,
          RULE_SEARCH,
          `Received for search=${JSON.stringify(term)}: ${stray.length} users whose name and email do not hold it, e.g. ${JSON.stringify(stray[0]?.name)} <${stray[0]?.email}>`,
        )
      }
    },
  )
})

describe('search terms are taken as sent', () => {
  test(
    '[profile] a term of white space alone finds the users whose name or email holds it, not everyone; a term with white space around it is not trimmed',
    covers('§4.list.search', '§4.list.search.as-sent'),
    async (context) => {
      const user = await prepareDisposable(context, 'listsAsData')
      // A name without white space, so that "no filter" and the term answer differently whatever the data.
      const tail = randomText(10)
      await patch(user, { name: `Solo${tail}` })
      const terms = [' ', '  ', '\t', '\u3000', ` ${tail}`, `${tail} `, ` Solo${tail} `]
      const reading = await readFilters(context, () => terms.map((search) => ({ search })))
      const everyone = comparable(reading.everyone.users)
      for (const { query, listing } of reading.answers) {
        const expected = ids(expectedFor(everyone, query))
        const received = ids(comparable(listing.users))
        const extra = received.filter((id) => !expected.includes(id))
        const missing = expected.filter((id) => !received.includes(id))
        expectRule(
          listing.exchange,
          extra.length === 0 && missing.length === 0,
          RULE_AS_SENT,
          `Query: search=${JSON.stringify(query['search'])}\nReceived: ${received.length} users${extra.includes(user.id) ? `, ${user.id} named ${JSON.stringify(`Solo${tail}`)} among them` : ''}\nExpected: the ${expected.length} of ${everyone.length} users whose name or email holds the term as sent\nMissing: [${some(missing)}]\nNot holding the term: [${some(extra)}]`,
        )
      }
    },
  )
})

describe('meta after every kind of change', () => {
  test(
    '[profile] a role change moves the user between the role totals, a suspension moves nobody, a rename moves the search totals; the whole total stays',
    covers('§4.list.answer', '§4.list.every-status'),
    async (context) => {
      const user = await prepareDisposable(context, 'listsAsData')
      const before = await readDisposable(context, user)
      const name = `Counted ${randomText(10)}`
      const queries: ListQuery[] = [{}, { role: 'CLIENT_VIEWER' }, { role: 'CLIENT_ADMIN' }, { search: name }]
      // Each change with how it moves each total: the whole one, the viewers, the admins, the new name's.
      const changes: Array<[string, Record<string, string>, number[]]> = [
        ['a role change CLIENT_VIEWER → CLIENT_ADMIN', { role: 'CLIENT_ADMIN' }, [0, -1, 1, 0]],
        ['a suspension', { status: 'SUSPENDED' }, [0, 0, 0, 0]],
        ['a rename', { name }, [0, 0, 0, 1]],
        ['putting them back', { name: before.name, role: before.role, status: before.status }, [0, 1, -1, -1]],
      ]
      let current: Record<string, string> = { name: before.name, role: before.role, status: before.status }
      for (const [label, change, shift] of changes) {
        const undo = Object.fromEntries(Object.keys(change).map((field) => [field, current[field] as string]))
        // Totals read right before and after the change: the webhook checks, in a thread of their own, delete
        // their users meanwhile, which moves the totals for good. A change measured while one did is undone and
        // measured again; a backend that miscounts does so every time.
        for (let attempt = 1; ; attempt++) {
          const baseline = await totals(queries)
          await patch(user, change)
          const expected = baseline.map((total, index) => total + (shift[index] as number))
          const pages = await readTotals(queries, expected)
          if (attempt === MEASURES_OF_A_CHANGE || holdsTotals(pages, expected)) {
            reportTotals(pages, queries, expected, label)
            break
          }
          await patch(user, undo)
        }
        current = { ...current, ...change }
      }
    },
  )

  test(
    '[profile] a deletion takes the user out of every total it counted in, and totalPages follows',
    covers('§4.list.answer', '§4.delete.after'),
    async (context) => {
      const user = await prepareDisposable(context, 'listsAsDataDelete', false)
      const me = await readDisposable(context, user)
      const queries: ListQuery[] = [{}, { role: me.role }, { search: me.email }]
      // The webhook checks change and delete their users meanwhile, in a thread of their own, and a deletion
      // cannot be measured again: those users are read around each reading of the totals, so that what they
      // moved is told from a miscount.
      const baseline = await readBesideOtherWriters(queries)
      const deletion = await send({ as: 'owner', method: 'DELETE', path: userPath(user.id) })
      expectStatus(deletion, 204, 'An owner may delete a CLIENT_VIEWER (docs/contract.md §3)')
      const expected = baseline.pages.map((page) => page.meta.total - 1)
      let pages = await readTotals(queries, expected)
      let judged = expected
      let moved = ''
      for (let attempt = 1; !holdsTotals(pages, judged) && attempt <= MEASURES_OF_A_CHANGE; attempt++) {
        // A moment for a backend whose lists follow a change a little later (readTotals waited for the exact totals).
        if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, 200 * attempt))
        const now = await readBesideOtherWriters(queries)
        const candidates = totalsWithOthersMoves(expected, queries, baseline, now)
        pages = now.pages
        judged = candidates.find((totals) => holdsTotals(pages, totals)) ?? expected
        moved = describeMoves(baseline.others, now.others)
      }
      reportTotals(pages, queries, judged, moved === '' ? 'the deletion' : `the deletion (${moved})`)
      // The others of the user's role, and those who share a part of their name or email, are all still there.
      const terms = [...new Set([...termsOf(me.name), ...termsOf(me.email)])]
      const reading = await readFilters(context, () => [{ role: me.role }, ...terms.map((search) => ({ search }))])
      expectExactAnswers(reading, 'after a deletion')
    },
  )
})

async function patch(user: DisposableUser, json: Record<string, unknown>): Promise<ApiUser> {
  const exchange = await send({ as: 'owner', method: 'PATCH', path: userPath(user.id), json })
  expectStatus(exchange, 200, 'An owner may change a CLIENT_VIEWER (docs/contract.md §3)')
  return userOf(exchange)
}

/** The first ids of a list, and how many more: a backend that ignores the term lists every user. */
function some(ids: string[]): string {
  return ids.length > 10 ? `${ids.slice(0, 10).join(', ')}, … ${ids.length - 10} more` : ids.join(', ')
}

async function totals(queries: ListQuery[]): Promise<number[]> {
  return (await readPages(queries)).map((page) => page.meta.total)
}

/** How many times a change is measured (read, changed, read) before its miscount is reported. */
const MEASURES_OF_A_CHANGE = 3

/** A user the webhook checks change, as the owner reads them: gone (null), or not known (undefined). */
type Seen = ApiUser | null | undefined

/** The pages of `queries`, and the webhook checks' users as read right before and after them. */
interface ReadingBesideOthers {
  pages: ListPage[]
  others: Seen[]
  /** The others read the same before and after: the totals are of that state. */
  steady: boolean
}

/** The webhook checks' users (SLOTS_OF_THE_WAITING_FILES) as the owner reads them now. */
async function readOtherWriters(): Promise<Seen[]> {
  const users = SLOTS_OF_THE_WAITING_FILES.flatMap((slot) => suite.target.disposable[DISPOSABLE_SLOTS[slot]] ?? [])
  return Promise.all(
    users.map(async (user) => {
      const exchange = await send({ as: 'owner', path: userPath(user.id) })
      if (exchange.response.status === 404) return null
      return exchange.response.status === 200 ? userOf(exchange) : undefined
    }),
  )
}

/** The pages of `queries` between two readings of the other writers' users; again (5 times at most) until those agree. */
async function readBesideOtherWriters(queries: ListQuery[]): Promise<ReadingBesideOthers> {
  for (let attempt = 1; ; attempt++) {
    const before = await readOtherWriters()
    const pages = await readPages(queries)
    const others = await readOtherWriters()
    const steady = before.every((seen, index) => sameSeen(seen, others[index]))
    if (steady || attempt === 5) return { pages, others, steady }
  }
}

function sameSeen(a: Seen, b: Seen): boolean {
  if (a === undefined || b === undefined || a === null || b === null) return a === b
  return a.role === b.role && a.name === b.name && a.email === b.email
}

/** Whether a user, as seen, counts in a query's total (the list counts every status). */
function countsIn(seen: Seen, query: ListQuery): number {
  if (seen === null || seen === undefined) return 0
  const roleHolds = query.role === undefined || query.role === seen.role
  return roleHolds && (typeof query.search !== 'string' || holdsTerm(seen, query.search)) ? 1 : 0
}

/**
 * `expected`, moved by what the other writers changed between two readings: exactly, when both readings were
 * steady; else by any of their moves, seen or not (each may have come before or after the totals were read).
 * A user gone counts one less; a renamed or promoted user moves between the totals their terms and role count in.
 */
function totalsWithOthersMoves(
  expected: number[],
  queries: ListQuery[],
  from: ReadingBesideOthers,
  to: ReadingBesideOthers,
): number[][] {
  const moves = from.others.flatMap((was, index) => {
    const now = to.others[index]
    if (was === undefined || now === undefined || sameSeen(was, now)) return []
    return [queries.map((query) => countsIn(now, query) - countsIn(was, query))]
  })
  let candidates = [expected]
  for (const move of moves) {
    candidates = [
      ...candidates,
      ...candidates.map((totals) => totals.map((total, index) => total + (move[index] ?? 0))),
    ]
  }
  // The last candidate holds every move: with both readings steady, it is the one the totals must show.
  if (from.steady && to.steady) return candidates.slice(-1)
  return candidates
}

/** What the other writers changed between two readings, in words, for a report. */
function describeMoves(from: Seen[], to: Seen[]): string {
  return from
    .flatMap((was, index) => {
      const now = to[index]
      if (was === undefined || now === undefined || sameSeen(was, now)) return []
      if (now === null) return [`the webhook checks deleted ${was?.id ?? 'a user'} meanwhile, taken into account`]
      return [
        `the webhook checks changed ${now.id} meanwhile (role ${was?.role ?? 'none'} → ${now.role}), taken into account`,
      ]
    })
    .join('; ')
}

type ListPage = Awaited<ReturnType<typeof listUsers>>

/** The pages of `queries`, read again a few times while their totals are not `expected` (untilSteady). */
function readTotals(queries: ListQuery[], expected: number[]): Promise<ListPage[]> {
  return untilSteady(
    () => readPages(queries),
    (found) => holdsTotals(found, expected),
  )
}

/** The first page of each of `queries`, 7 users a page: the pages whose meta this file compares. */
function readPages(queries: ListQuery[]): Promise<ListPage[]> {
  return Promise.all(queries.map((query) => listUsers('owner', { ...query, limit: 7 })))
}

function holdsTotals(pages: ListPage[], expected: number[]): boolean {
  return pages.every((page, index) => page.meta.total === expected[index])
}

function reportTotals(pages: ListPage[], queries: ListQuery[], expected: number[], after: string): void {
  pages.forEach((page, index) => {
    const meta: PageMeta = page.meta
    expectRule(
      page.exchange,
      meta.total === expected[index] && meta.totalPages === Math.ceil(meta.total / 7) && meta.limit === 7,
      RULE_META,
      `After ${after}, ${JSON.stringify(queries[index])}:\nReceived: total ${meta.total}, totalPages ${meta.totalPages}\nExpected: total ${expected[index]}, totalPages ${Math.ceil((expected[index] as number) / 7)}`,
    )
  })
}
