import type { ListQuery } from '../../../../src/domain/user.js'
import {
  pageOf,
  pathOf,
  queryOf,
  refuseWhen,
  rewriteJson,
  rewriteResponse,
  withQuery,
  wrapEngine,
  wrapStore,
} from '../break-helpers.js'
import type { Mutant } from './mutant.js'

/** Broken implementations of §4 GET /api/users: paging, order, the role filter and the search. */
export const LIST_USERS_MUTANTS: Mutant[] = [
  {
    name: 'clamps-the-limit',
    breaks: '§4 out-of-range values are a 400, never clamped',
    caughtBy: /limit|400/i,
    apply(internals) {
      wrapEngine(internals, (request, next) =>
        next(withQuery(request, (query) => Number(query.get('limit')) > 100 && query.set('limit', '100'))),
      )
    },
  },
  {
    name: 'refuses-the-largest-limit',
    breaks: '§4 limit is from 1 to 100: limit=100 is valid',
    caughtBy: /limit=100/,
    apply(internals) {
      // An off-by-one: `limit < 100` where `limit <= 100` was meant.
      refuseWhen(internals, 400, (request) => Number(queryOf(request).get('limit')) >= 100, 'query', '/limit')
    },
  },
  {
    name: 'refuses-leading-zeros',
    breaks: '§4 integers may have leading zeros: page=007 is page 7',
    caughtBy: /leading zeros are accepted/,
    apply(internals) {
      const padded = (value: string | null): boolean => value !== null && /^0\d/.test(value)
      refuseWhen(
        internals,
        400,
        (request) => padded(queryOf(request).get('page')) || padded(queryOf(request).get('limit')),
        'query',
        '/page',
      )
    },
  },
  {
    name: 'reads-roles-case-insensitively',
    breaks: '§4 enumerations are case-sensitive: role=client_viewer is a 400',
    caughtBy: /role|400/i,
    apply(internals) {
      wrapEngine(internals, (request, next) =>
        next(
          withQuery(
            request,
            (query) => query.has('role') && query.set('role', String(query.get('role')).toUpperCase()),
          ),
        ),
      )
    },
  },
  {
    name: 'reads-search-as-a-sql-like-pattern',
    breaks: '§4 search is a plain substring: % and _ are text',
    caughtBy: /as plain text/i,
    apply({ state }) {
      wrapStore(state, 'listUsers', (original) => (caller, query) => {
        if (!query.search) return original(caller, query)
        // LIKE '%term%' where the term's own % and _ stay wildcards.
        const pattern = query.search
          .toLowerCase()
          .replace(/[.+*?^${}()|[\]\\]/g, '\\$&')
          .replace(/%/g, '.*')
          .replace(/_/g, '.')
        const like = new RegExp(pattern)
        const all = original(caller, { ...query, search: undefined, page: 1, limit: Number.MAX_SAFE_INTEGER }).data
        const data = all.filter((user) => like.test(user.name.toLowerCase()) || like.test(user.email.toLowerCase()))
        return pageOf(data, query)
      })
    },
  },
  {
    name: 'searches-case-sensitively',
    breaks: '§4 search is case-insensitive',
    caughtBy: /search|case/i,
    apply({ state }) {
      wrapStore(state, 'listUsers', (original) => (caller, query) => {
        const page = original(caller, { ...query, page: 1, limit: 100 })
        if (!query.search) return original(caller, query)
        const term = query.search
        const data = page.data.filter((user) => user.name.includes(term) || user.email.includes(term))
        return pageOf(data, query)
      })
    },
  },
  {
    name: 'trims-the-search-term',
    breaks: '§4 the search term is taken as sent, not trimmed: white space alone is a term, not "no filter"',
    caughtBy: /as sent, not trimmed/i,
    apply({ state }) {
      // A backend that tidies its parameters: " " becomes "", which means no filter.
      wrapStore(
        state,
        'listUsers',
        (original) => (caller, query) => original(caller, { ...query, search: query.search?.trim() }),
      )
    },
  },
  {
    name: 'folds-accents-in-search',
    breaks: '§4 search lower-cases both sides and nothing more: "zoe" does not find "Zoë"',
    caughtBy: /nothing more/i,
    apply({ state }) {
      // What an accent-insensitive collation does (MySQL's utf8mb4_0900_ai_ci, unaccent() in SQL): marks go.
      const fold = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
      wrapStore(state, 'listUsers', (original) => (caller, query) => {
        const { search, ...unfiltered } = query
        if (!search) return original(caller, query)
        const term = fold(search)
        const everyone = original(caller, { ...unfiltered, page: 1, limit: Number.MAX_SAFE_INTEGER }).data
        return pageOf(
          everyone.filter((user) => fold(user.name).includes(term) || fold(user.email).includes(term)),
          query,
        )
      })
    },
  },
  {
    name: 'lower-cases-ascii-only',
    breaks: '§4 search ignores case: both sides lower-cased, beyond ASCII too',
    caughtBy: /beyond ASCII/i,
    apply({ state }) {
      // What SQL's LOWER() does under a C collation: A–Z only.
      const lower = (text: string): string => text.replace(/[A-Z]/g, (letter) => letter.toLowerCase())
      wrapStore(state, 'listUsers', (original) => (caller, query) => {
        const { search, ...unfiltered } = query
        if (!search) return original(caller, query)
        const term = lower(search)
        const everyone = original(caller, { ...unfiltered, page: 1, limit: 100 })
        const data = everyone.data.filter((user) => lower(user.name).includes(term) || lower(user.email).includes(term))
        return pageOf(data, query)
      })
    },
  },
  {
    name: 'counts-search-in-utf16-units',
    breaks: '§4 search is at most 100 characters, counted in code points',
    caughtBy: /search/i,
    apply(internals) {
      wrapEngine(internals, async (request, next) => {
        const search = new URLSearchParams(request.url.split('?')[1] ?? '').get('search')
        // JavaScript's string length: 100 characters outside the BMP count 200.
        return search !== null && search.length > 100 && [...search].length <= 100
          ? next(withQuery(request, (query) => query.set('search', 'x'.repeat(101))))
          : next(request)
      })
    },
  },
  {
    name: 'orders-newest-first',
    breaks: '§4 order is createdAt then id, ascending',
    caughtBy: /order|createdAt/i,
    apply(internals) {
      rewriteJson(internals, (body, request) => {
        if (pathOf(request) === '/api/users' && Array.isArray(body.data)) body.data = [...body.data].reverse()
        return body
      })
    },
  },
  {
    name: 'rounds-total-pages-down',
    breaks: '§4 totalPages = ceil(total / limit)',
    caughtBy: /totalPages|pages/i,
    apply(internals) {
      rewriteJson(internals, (body) => {
        const meta = body.meta as { total: number; limit: number; totalPages: number } | undefined
        if (meta) meta.totalPages = Math.floor(meta.total / meta.limit)
        return body
      })
    },
  },
  {
    name: 'answers-404-past-the-end',
    breaks: '§4 a page past the end is a 200 with data []',
    caughtBy: /past the end/i,
    apply(internals) {
      rewriteResponse(internals, (response, request) => {
        if (pathOf(request) !== '/api/users' || response.status !== 200 || response.body === undefined) return
        const body = JSON.parse(response.body) as { data: unknown[]; meta: { page: number } }
        if (body.data.length > 0 || body.meta.page === 1) return
        const problem = {
          type: 'about:blank',
          title: 'Not Found',
          status: 404,
          code: 'NOT_FOUND',
          detail: 'No such page.',
        }
        return { status: 404, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify(problem) }
      })
    },
  },
  {
    name: 'pages-the-list-before-filtering-it',
    breaks: '§4 role= and search= filter the whole list, then page it',
    caughtBy: /paged after filtering/i,
    apply({ state }) {
      wrapStore(state, 'listUsers', (original) => (caller, query: ListQuery) => {
        if (query.role === undefined && query.search === undefined) return original(caller, query)
        // The page of the whole list, then filtered: what a LIMIT before a WHERE gives.
        const whole = original(caller, { ...query, role: undefined, search: undefined })
        const kept = whole.data.filter(
          (user) =>
            (query.role === undefined || user.role === query.role) &&
            (query.search === undefined ||
              `${user.name}\n${user.email}`.toLowerCase().includes(query.search.toLowerCase())),
        )
        return { ...whole, data: kept }
      })
    },
  },
  {
    name: 'lists-only-active-users-to-viewers',
    breaks: '§4 the list holds users of every status, for every role that may list',
    caughtBy: /lists the users the owner lists/i,
    apply({ state }) {
      wrapStore(state, 'listUsers', (original) => (caller, query) => {
        if (caller.role !== 'CLIENT_VIEWER') return original(caller, query)
        const everyone = original(caller, { ...query, page: 1, limit: 100 })
        const data = everyone.data.filter((user) => user.status === 'ACTIVE')
        return pageOf(data, query)
      })
    },
  },
]
