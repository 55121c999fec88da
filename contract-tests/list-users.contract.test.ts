import { describe } from 'vitest'
import { holdsTerm, itemsOf, ROLES, type ApiUser } from './support/api-user.js'
import { expectValidationProblem } from './support/expect-problem.js'
import { isSteadyWalk, listItems, listUsers, readMe, walkUsers, type UserPage } from './support/read-users.js'
import { expectRule, expectStatus, needActor, send, test } from './support/suite.js'
import { untilSteady } from './support/until-steady.js'
import { listPath, randomText, unmatchedSearch } from './support/user-paths.js'
import type { SentenceId } from '../src/contract/rules/contract-sentences.js'
import { covers } from './support/covers.js'

// CONTRACT §4, GET /api/users. Read-only, as the owner unless said otherwise. Other files change and
// delete their disposable users meanwhile: comparisons of two readings use untilSteady.

const NOT_LISTED = 'A rule of GET /api/users (docs/contract.md §4)'

describe.concurrent('the list and its parameters', () => {
  test(
    '[core] GET /api/users answers 200 with a list of users',
    covers('§4.list.exists', '§4.paths'),
    async (context) => {
      needActor(context, 'owner')
      const exchange = await send({ as: 'owner', path: '/api/users' })
      expectStatus(exchange, 200, 'GET /api/users exists (docs/contract.md §4)')
      expectRule(exchange, itemsOf(exchange).length > 0, NOT_LISTED, 'Received: no user, not even the caller')
    },
  )

  test('[core] limit sets how many users a page holds', covers('§4.list.exists', '§4.list.limit'), async (context) => {
    needActor(context, 'owner')
    for (const limit of [1, 2]) {
      const exchange = await send({ as: 'owner', path: listPath({ limit }) })
      expectStatus(exchange, 200, 'limit is a parameter of GET /api/users (docs/contract.md §4)')
      const count = itemsOf(exchange).length
      expectRule(
        exchange,
        count >= 1 && count <= limit,
        NOT_LISTED,
        `Received: ${count} users\nExpected: 1 to ${limit}`,
      )
    }
  })

  test(
    '[core] page moves through the list: page 2 of one user a page is another user than page 1',
    covers('§4.list.exists', '§4.list.page'),
    async (context) => {
      needActor(context, 'owner')
      const first = await send({ as: 'owner', path: listPath({ limit: 1, page: 1 }) })
      const second = await send({ as: 'owner', path: listPath({ limit: 1, page: 2 }) })
      expectStatus(second, 200, 'page is a parameter of GET /api/users (docs/contract.md §4)')
      const [a] = itemsOf(first)
      const [b] = itemsOf(second)
      if (!b) return context.skip('the organization has a single user: there is no second page')
      expectRule(
        second,
        a?.id !== b.id,
        'page=2 answers the next users (docs/contract.md §4)',
        `Received: ${b.id} on both pages`,
      )
    },
  )

  for (const role of ROLES) {
    test(
      `[core] role=${role} lists only users whose role is ${role}`,
      covers('§4.list.exists', '§4.list.role'),
      async (context) => {
        needActor(context, 'owner')
        const page = await listItems('owner', { role })
        const other = page.items.find((user) => user.role !== role)
        expectRule(
          page.exchange,
          other === undefined,
          'role filters on equality (docs/contract.md §4)',
          `Received: ${other?.id} (${other?.role})`,
        )
      },
    )
  }

  test(
    '[core] search finds a user by a middle part of their name, whatever its case',
    covers('§4.list.exists', '§4.list.search'),
    async (context) => {
      needActor(context, 'admin')
      const admin = await readMe('admin')
      await expectFoundBy(admin, swapCase(middleOf(admin.name)))
    },
  )

  test(
    '[core] search finds a user by a middle part of their email, whatever its case',
    covers('§4.list.exists', '§4.list.search'),
    async (context) => {
      needActor(context, 'admin')
      const admin = await readMe('admin')
      await expectFoundBy(admin, swapCase(middleOf(admin.email)))
    },
  )

  test(
    '[core] every user a search answers matches it in name or email, ignoring case',
    covers('§4.list.search'),
    async (context) => {
      needActor(context, 'owner')
      for (const search of ['a', 'E', 'on']) {
        const page = await listItems('owner', { search })
        const stray = page.items.find((user) => !holdsTerm(user, search))
        expectRule(
          page.exchange,
          stray === undefined,
          'search is a case-insensitive substring of name or email (docs/contract.md §4)',
          `Received: ${stray?.name} <${stray?.email}>`,
        )
      }
    },
  )
})

describe.concurrent('values out of range are a 400, never clamped', () => {
  const invalid: Array<[string, string]> = [
    ['page', '0'],
    ['page', '-1'],
    ['page', '1.5'],
    ['page', 'abc'],
    ['limit', '0'],
    ['limit', '101'],
    ['limit', '1.5'],
    ['limit', 'abc'],
    ['role', 'client_viewer'],
    ['role', 'SUPERUSER'],
    ['search', 'x'.repeat(101)],
    // 101 code points outside the BMP: 202 UTF-16 code units, 404 bytes of UTF-8.
    ['search', '\u{1D49C}'.repeat(101)],
  ]
  for (const [name, value] of invalid) {
    const length = [...value].length
    const shown =
      length > 20 ? `${length} ${/^[\x20-\x7e]*$/.test(value) ? 'characters' : 'code points outside the BMP'}` : value
    test(
      `[profile] ${name}=${shown} is a 400 that names the query parameter`,
      covers(...outOfRangeSentences(name, value)),
      async (context) => {
        needActor(context, 'owner')
        const exchange = await send({ as: 'owner', path: listPath({ [name]: value }) })
        expectValidationProblem(
          exchange,
          'query',
          `${name}=${shown} is out of range: 400, never clamped (docs/contract.md §4)`,
          `/${name}`,
        )
      },
    )
  }

  test(
    '[profile] integers are decimal digits only: +5, 1e1, 0x10, 1.0 and an empty value are a 400',
    covers('§4.list.decimal', '§4.list.out-of-range'),
    async (context) => {
      needActor(context, 'owner')
      const sends = ['page', 'limit'].flatMap((name) =>
        ['+5', '1e1', '0x10', '1.0', ''].map(async (value) => {
          const exchange = await send({ as: 'owner', path: listPath({ [name]: value }) })
          expectValidationProblem(
            exchange,
            'query',
            `${name}=${value} is not decimal digits: 400 (docs/contract.md §4)`,
            `/${name}`,
          )
        }),
      )
      await Promise.all(sends)
    },
  )

  test(
    '[profile] leading zeros are accepted: page=007 is page 7, limit=007 is 7',
    covers('§4.list.decimal'),
    async (context) => {
      needActor(context, 'owner')
      const { exchange, meta } = await listUsers('owner', { page: '007', limit: '007' })
      const holds = meta.page === 7 && meta.limit === 7
      expectRule(
        exchange,
        holds,
        'Leading zeros are accepted (docs/contract.md §4)',
        `Received: meta ${JSON.stringify(meta)}`,
      )
    },
  )

  test(
    '[profile] page goes up to 2^53 − 1: that page is a 200 with data [], one more is a 400',
    covers('§4.list.page', '§4.list.past-the-end', '§4.list.out-of-range'),
    async (context) => {
      needActor(context, 'owner')
      const last = await listUsers('owner', { page: '9007199254740991' })
      expectRule(
        last.exchange,
        last.items.length === 0 && last.meta.page === Number.MAX_SAFE_INTEGER,
        'page goes up to 9007199254740991 (docs/contract.md §4)',
        `Received: ${last.items.length} users, meta ${JSON.stringify(last.meta)}`,
      )
      const beyond = await send({ as: 'owner', path: listPath({ page: '9007199254740992' }) })
      expectValidationProblem(
        beyond,
        'query',
        'page=2^53 is out of range: 400, never clamped (docs/contract.md §4)',
        '/page',
      )
    },
  )

  test(
    '[profile] a known parameter given twice is a 400; an unknown one given twice is ignored',
    covers('§4.list.repeated', '§4.list.unknown-params'),
    async (context) => {
      needActor(context, 'owner')
      for (const query of ['page=1&page=2', 'limit=5&limit=5', 'role=BOT_USER&role=BOT_USER', 'search=a&search=b']) {
        const name = query.split('=')[0] ?? ''
        const exchange = await send({ as: 'owner', path: `/api/users?${query}` })
        expectValidationProblem(exchange, 'query', `${name} given twice is a 400 (docs/contract.md §4)`, `/${name}`)
      }
      const [plain, repeated] = await untilSteady(
        () =>
          Promise.all([
            listUsers('owner', { limit: 100 }),
            send({ as: 'owner', path: '/api/users?limit=100&x=1&x=2' }).then((exchange) => ({
              exchange,
              items: itemsOf(exchange),
            })),
          ]),
        ([a, b]) => idsOf(a) === b.items.map((user) => user.id).join(','),
      )
      expectStatus(repeated.exchange, 200, 'Unknown parameters are ignored, repeated or not (docs/contract.md §4)')
      expectRule(
        repeated.exchange,
        idsOf(plain) === repeated.items.map((user) => user.id).join(','),
        'Unknown parameters are ignored, repeated or not (docs/contract.md §4)',
        'Received: other users than without them',
      )
    },
  )

  test(
    '[profile] the bounds themselves are accepted: page=1, limit=1, limit=100, a search of 100 characters, also outside the BMP',
    covers('§4.list.page', '§4.list.limit', '§4.list.search', '§4.list.out-of-range'),
    async (context) => {
      needActor(context, 'owner')
      // Characters are code points (docs/contract.md §4): 100 of them outside the BMP are 200 UTF-16 units.
      const queries = [
        { page: 1 },
        { limit: 1 },
        { limit: 100 },
        { search: randomText(100) },
        { search: '\u{1D49C}'.repeat(100) },
      ]
      for (const query of queries) {
        const page = await listUsers('owner', query)
        const limit = 'limit' in query ? query.limit : 20
        expectRule(
          page.exchange,
          page.meta.limit === limit,
          NOT_LISTED,
          `Received: meta.limit ${page.meta.limit}\nExpected: ${limit}`,
        )
      }
    },
  )

  test(
    "[profile] a bot's invalid query is a 400, not a 403: validation comes before permission",
    covers('§3.order', '§3.order.examples'),
    async (context) => {
      needActor(context, 'bot')
      const exchange = await send({ as: 'bot', path: listPath({ limit: 0 }) })
      expectValidationProblem(
        exchange,
        'query',
        'The order of checks: validation (400) before permission (403) (docs/contract.md §3)',
      )
    },
  )
})

describe.concurrent('pages', () => {
  test(
    '[profile] without parameters the list answers page 1 of 20 users',
    covers('§4.list.page', '§4.list.limit'),
    async (context) => {
      needActor(context, 'owner')
      const { exchange, items, meta } = await listUsers('owner')
      const holds = meta.page === 1 && meta.limit === 20 && items.length === Math.min(20, meta.total)
      expectRule(
        exchange,
        holds,
        'page defaults to 1 and limit to 20 (docs/contract.md §4)',
        `Received: ${items.length} users, meta ${JSON.stringify(meta)}`,
      )
    },
  )

  test(
    '[profile] totalPages is ceil(total / limit) and each page holds what is left of the total',
    covers('§4.list.answer', '§4.envelope'),
    async (context) => {
      needActor(context, 'owner')
      for (const limit of [1, 7, 20, 100]) {
        for (const page of [1, 2]) {
          const answer = await listUsers('owner', { limit, page })
          expectArithmetic(answer, page, limit)
        }
      }
    },
  )

  test(
    '[profile] a search that matches nobody has total 0, totalPages 0 and no data',
    covers('§4.list.answer'),
    async (context) => {
      needActor(context, 'owner')
      const answer = await listUsers('owner', { search: unmatchedSearch() })
      expectArithmetic(answer, 1, 20)
      expectRule(
        answer.exchange,
        answer.meta.total === 0 && answer.meta.totalPages === 0,
        NOT_LISTED,
        `Received: meta ${JSON.stringify(answer.meta)}`,
      )
    },
  )

  test(
    '[profile] a page past the end is a 200 with data [] and meta intact',
    covers('§4.list.past-the-end'),
    async (context) => {
      needActor(context, 'owner')
      const { meta } = await listUsers('owner', { limit: 10 })
      for (const page of [meta.totalPages + 1, 1_000_000]) {
        const answer = await listUsers('owner', { limit: 10, page })
        expectArithmetic(answer, page, 10)
        expectRule(
          answer.exchange,
          answer.items.length === 0,
          'A page past the end is 200 with data [] (docs/contract.md §4)',
          `Received: ${answer.items.length} users`,
        )
      }
    },
  )

  test(
    '[profile] users are ordered by createdAt, then id, ascending, within and across pages',
    covers('§4.list.order'),
    async (context) => {
      needActor(context, 'owner')
      const rule = 'Order: createdAt ascending, then id ascending (docs/contract.md §4)'
      let previous: ApiUser | undefined
      let compared = 0
      for (const page of await walkAll({})) {
        for (const user of page.items) {
          if (previous) {
            const message = `Received: ${describeUser(previous)} before ${describeUser(user)}`
            expectRule(page.exchange, compareUsers(previous, user) < 0, rule, message)
            compared += 1
          }
          previous = user
        }
      }
      if (compared === 0) context.skip('the list holds fewer than two users: there is no order to check')
    },
  )

  test(
    '[profile] the pages are disjoint and together hold every user once',
    covers('§4.list.order'),
    async (context) => {
      needActor(context, 'owner')
      const pages = await untilSteady(() => walkAll({}), isSteadyWalk)
      const last = pages.at(-1)
      if (!last) throw new Error('A walk reads at least one page.')
      const ids = pages.flatMap((page) => page.items.map((user) => user.id))
      const rule = 'Pages are stable while nothing changes: disjoint and complete (docs/contract.md §4)'
      expectRule(last.exchange, new Set(ids).size === ids.length, rule, 'Received: a user on two pages')
      if (last.meta.page >= last.meta.totalPages) {
        expectRule(
          last.exchange,
          ids.length === last.meta.total,
          rule,
          `Received: ${ids.length} users on the pages\nExpected: total ${last.meta.total}`,
        )
      }
    },
  )

  test(
    "[profile] the list holds only the caller's organization",
    covers('§4.list.own-organization'),
    async (context) => {
      needActor(context, 'owner')
      const owner = await readMe('owner')
      const pages = await walkUsers('owner', { limit: 100 }, 3)
      for (const page of pages) {
        const stray = page.items.find((user) => user.organizationId !== owner.organizationId)
        expectRule(
          page.exchange,
          stray === undefined,
          "The list holds only the caller's organization (docs/contract.md §4)",
          `Received: ${stray?.id} of ${stray?.organizationId}`,
        )
      }
    },
  )
})

describe.concurrent('filters', () => {
  test('[profile] unknown query parameters are ignored', covers('§4.list.unknown-params'), async (context) => {
    needActor(context, 'owner')
    const [plain, extra] = await untilSteady(
      () => Promise.all([listUsers('owner', { limit: 100 }), listUsers('owner', { limit: 100, sort: 'desc', x: 'y' })]),
      ([a, b]) => idsOf(a) === idsOf(b),
    )
    const same = idsOf(plain) === idsOf(extra)
    expectRule(
      extra.exchange,
      same,
      'Unknown query parameters are ignored (docs/contract.md §4)',
      'Received: other users than without them',
    )
  })

  test('[profile] an empty search is no filter', covers('§4.list.search'), async (context) => {
    needActor(context, 'owner')
    const [plain, empty] = await untilSteady(
      () => Promise.all([listUsers('owner', { limit: 100 }), listUsers('owner', { limit: 100, search: '' })]),
      ([a, b]) => idsOf(a) === idsOf(b),
    )
    expectRule(
      empty.exchange,
      idsOf(plain) === idsOf(empty),
      'An empty search means no filter (docs/contract.md §4)',
      `Received: total ${empty.meta.total}\nExpected: ${plain.meta.total}`,
    )
  })

  test(
    '[profile] the totals of the four roles add up to the total',
    covers('§4.list.role', '§1.role'),
    async (context) => {
      needActor(context, 'owner')
      // Other files promote their disposable users for a moment: read again until a reading agrees.
      const read = async (): Promise<{ all: UserPage; byRole: UserPage[] }> => {
        const [all, byRole] = await Promise.all([
          listUsers('owner', { limit: 1 }),
          Promise.all(ROLES.map((role) => listUsers('owner', { role, limit: 1 }))),
        ])
        return { all, byRole }
      }
      const sum = (pages: UserPage[]): number => pages.reduce((total, page) => total + page.meta.total, 0)
      const { all, byRole } = await untilSteady(read, (reading) => sum(reading.byRole) === reading.all.meta.total)
      const rule = 'role filters on equality; every user has one of the four roles (docs/contract.md §1, §4)'
      const totals = byRole.map((page, index) => `${ROLES[index]} ${page.meta.total}`).join(', ')
      expectRule(
        all.exchange,
        sum(byRole) === all.meta.total,
        rule,
        `Received: ${totals}\nExpected: a sum of ${all.meta.total}`,
      )
    },
  )
})

const WALK_LIMIT = 7

/** What a refused value proves besides the 400 itself: its parameter's rule. */
function outOfRangeSentences(name: string, value: string): SentenceId[] {
  const sentences: SentenceId[] = ['§4.list.out-of-range', '§5.errors.pointer']
  if (name === 'page') sentences.push('§4.list.page')
  if (name === 'limit') sentences.push('§4.list.limit')
  if (name === 'search') sentences.push('§4.list.search')
  if (name === 'role') sentences.push(value === value.toLowerCase() ? '§4.list.enum-case' : '§4.list.role')
  return sentences
}

/** Every page at a small limit when the list is short (at most 300), else the first three. */
async function walkAll(query: Record<string, string>): Promise<UserPage[]> {
  const first = await listUsers('owner', { ...query, limit: WALK_LIMIT })
  const maxPages = first.meta.total <= 300 ? first.meta.totalPages : 3
  return walkUsers('owner', { ...query, limit: WALK_LIMIT }, Math.max(maxPages, 1))
}

function expectArithmetic({ exchange, items, meta }: UserPage, page: number, limit: number): void {
  const rule =
    'meta: the page and limit asked, totalPages = ceil(total / limit), the rest of the total on this page (docs/contract.md §4)'
  const expectedItems = Math.max(0, Math.min(limit, meta.total - (page - 1) * limit))
  const holds =
    meta.page === page &&
    meta.limit === limit &&
    meta.totalPages === Math.ceil(meta.total / limit) &&
    items.length === expectedItems
  expectRule(
    exchange,
    holds,
    rule,
    `Received: ${items.length} users, meta ${JSON.stringify(meta)}\nExpected: page ${page}, limit ${limit}, ${expectedItems} users`,
  )
}

/** Walks the pages of a search (page is a core parameter; meta is not) until the user shows. */
async function expectFoundBy(user: ApiUser, search: string): Promise<void> {
  const rule = 'search is a case-insensitive substring of name or email (docs/contract.md §4)'
  for (let page = 1; page <= 10; page += 1) {
    const { exchange, items } = await listItems('owner', { search, page })
    const stray = items.find((item) => !holdsTerm(item, search))
    expectRule(exchange, stray === undefined, rule, `Received: ${stray?.name} <${stray?.email}>`)
    if (items.some((item) => item.id === user.id)) return
    if (items.length === 0) {
      expectRule(
        exchange,
        false,
        rule,
        `Received: no ${user.id} (${user.name} <${user.email}>) for search ${JSON.stringify(search)}`,
      )
    }
  }
}

/** The middle of a text, a third of it cut at each end, never empty; whole code points. */
function middleOf(text: string): string {
  const points = [...text]
  const cut = Math.floor(points.length / 3)
  return points.slice(cut, Math.max(cut + 1, points.length - cut)).join('')
}

/** Upper case for lower and back, where that keeps the lower-cased text (not ß → SS, not İ). */
function swapCase(text: string): string {
  const swap = (char: string): string => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase())
  return [...text].map((char) => (swap(char).toLowerCase() === char.toLowerCase() ? swap(char) : char)).join('')
}

function compareUsers(a: ApiUser, b: ApiUser): number {
  const byTime = Date.parse(a.createdAt) - Date.parse(b.createdAt)
  if (byTime !== 0) return byTime
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

function describeUser(user: ApiUser): string {
  return `${user.id} (createdAt ${user.createdAt})`
}

function idsOf(page: UserPage): string {
  return page.items.map((user) => user.id).join(',')
}
