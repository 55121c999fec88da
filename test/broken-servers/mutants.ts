import { createHmac } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { AppError } from '../../src/errors.js'
import type { ListQuery, User, UserPatch } from '../../src/domain/user.js'
import type { EngineResponse } from '../../src/engine/engine-request.js'
import type { MockOptions } from '../../src/server/start-mock.js'
import { generateWebhookSecret } from '../../src/webhooks/webhook-secret.js'
import {
  asRole,
  findAnywhere,
  pageOf,
  pathOf,
  rewriteJson,
  rewriteRequest,
  rewriteResponse,
  storeChanged,
  withQuery,
  wrapEngine,
  wrapStore,
  type MockInternals,
} from './break-helpers.js'

/**
 * Deliberately broken implementations of the users API: the mock with one rule broken each. The
 * contract suite must fail on each, and on the right check: `caughtBy` matches the failed checks'
 * names and messages. One per rule family of the contract, at least.
 */
export interface Mutant {
  name: string
  /** The rule of CONTRACT.md it breaks. */
  breaks: string
  caughtBy: RegExp
  apply(internals: MockInternals): void
  /** Options the broken mock starts with (a webhook delivery that never retries). */
  mockOptions?: Partial<MockOptions>
}

const OWNER = 'CLIENT_OWNER'

export const MUTANTS: Mutant[] = [
  // ── Authentication (§2)
  {
    name: 'accepts-a-missing-authorization-header',
    breaks: '§2 a missing Authorization header is a 401',
    caughtBy: /missing Authorization header/i,
    apply(internals) {
      rewriteRequest(internals, (request) => {
        if (request.url.startsWith('/api') && !request.headers.authorization) {
          const { state } = internals
          const owner = state.store.tokens().find(({ user }) => user.role === OWNER && user.status === 'ACTIVE')
          if (owner) return { ...request, headers: { ...request.headers, authorization: `Bearer ${owner.token}` } }
        }
        return request
      })
    },
  },
  {
    name: 'drops-www-authenticate',
    breaks: '§2 a 401 carries WWW-Authenticate: Bearer',
    caughtBy: /www-authenticate/i,
    apply(internals) {
      rewriteResponse(internals, (response) => {
        delete response.headers['www-authenticate']
      })
    },
  },
  {
    name: 'says-invalid-token-without-a-token',
    breaks: '§2 error="invalid_token" only when a non-empty Bearer token was refused',
    caughtBy: /invalid_token/i,
    apply(internals) {
      rewriteResponse(internals, (response) => {
        if (response.status === 401) response.headers['www-authenticate'] = 'Bearer error="invalid_token"'
      })
    },
  },
  {
    name: 'lets-suspended-users-in',
    breaks: "§2 a SUSPENDED user's token is a 401",
    caughtBy: /suspend/i,
    apply({ state }) {
      acceptTokensOf(state, (user) => user.status === 'SUSPENDED')
    },
  },
  {
    name: 'keeps-deleted-users-tokens',
    breaks: '§2/§4 a deleted user loses access at once',
    caughtBy: /token/i,
    apply({ state }) {
      const deleted = new Map<string, User>()
      wrapStore(state, 'deleteUser', (original, store) => (caller, id) => {
        const entry = store.tokens().find(({ user }) => user.id === id)
        original(caller, id)
        if (entry) deleted.set(entry.token, entry.user)
      })
      wrapStore(state, 'authenticate', (original) => (token) => deleted.get(token) ?? original(token))
    },
  },
  // ── The permission table (§3)
  {
    name: 'lets-bots-list',
    breaks: '§3 GET /api/users is 403 for BOT_USER',
    caughtBy: /bot/i,
    apply({ state }) {
      wrapStore(
        state,
        'listUsers',
        (original) => (caller, query: ListQuery) =>
          original(caller.role === 'BOT_USER' ? asRole(caller, 'CLIENT_VIEWER') : caller, query),
      )
    },
  },
  {
    name: 'lets-bots-read-others',
    breaks: '§3 GET /api/users/:id is own only for BOT_USER',
    caughtBy: /bot/i,
    apply({ state }) {
      wrapStore(
        state,
        'getUser',
        (original) => (caller, id) =>
          original(caller.role === 'BOT_USER' ? asRole(caller, 'CLIENT_VIEWER') : caller, id),
      )
    },
  },
  {
    name: 'lets-bots-read-non-owners',
    breaks: '§3 GET /api/users/:id is own only for BOT_USER, whatever the role of the other user',
    caughtBy: /the bot may not read the (admin|viewer) by id/i,
    apply({ state }) {
      // "Own" read as "anyone but an owner": the bug a table with the admins' column copied would have.
      wrapStore(state, 'getUser', (original, store) => (caller, id) => {
        const target = findAnywhere(store, id)
        const reader = caller.role === 'BOT_USER' && target?.role !== OWNER ? asRole(caller, 'CLIENT_VIEWER') : caller
        return original(reader, id)
      })
    },
  },
  {
    name: 'lets-viewers-rename-others',
    breaks: '§3 PATCH name is own only for CLIENT_VIEWER',
    caughtBy: /viewer/i,
    apply({ state }) {
      wrapStore(
        state,
        'updateUser',
        (original) => (caller, id, patch: UserPatch) =>
          original(
            caller.role === 'CLIENT_VIEWER' && patch.name !== undefined ? asRole(caller, 'CLIENT_ADMIN') : caller,
            id,
            patch,
          ),
      )
    },
  },
  {
    name: 'lets-admins-change-owners',
    breaks: '§3 an admin may not change an owner',
    caughtBy: /owner/i,
    apply({ state }) {
      wrapStore(
        state,
        'updateUser',
        (original) => (caller, id, patch) =>
          original(caller.role === 'CLIENT_ADMIN' ? asRole(caller, OWNER) : caller, id, patch),
      )
    },
  },
  {
    name: 'lets-admins-grant-owner',
    breaks: '§3 an admin never sets role CLIENT_OWNER',
    caughtBy: /CLIENT_OWNER|owner/i,
    apply({ state }) {
      wrapStore(
        state,
        'updateUser',
        (original) => (caller, id, patch) =>
          original(caller.role === 'CLIENT_ADMIN' && patch.role === OWNER ? asRole(caller, OWNER) : caller, id, patch),
      )
    },
  },
  {
    name: 'lets-users-change-their-own-role',
    breaks: '§3 nobody changes their own role or status',
    caughtBy: /own (role|status)|themselves|self/i,
    apply({ state }) {
      wrapStore(state, 'updateUser', (original, store) => (caller, id, patch) => {
        if (caller.id !== id || (patch.role === undefined && patch.status === undefined))
          return original(caller, id, patch)
        const user = findAnywhere(store, id) as User
        return storeChanged(store, user, {
          ...(patch.role ? { role: patch.role } : {}),
          ...(patch.status ? { status: patch.status } : {}),
        })
      })
    },
  },
  {
    name: 'lets-users-delete-themselves',
    breaks: '§3 nobody deletes themselves',
    caughtBy: /delete.*(themselves|self|own)|(themselves|self).*delete/i,
    apply({ state }) {
      wrapStore(state, 'deleteUser', (original, store) => (caller, id) => {
        if (caller.id !== id) return original(caller, id)
        const owner = store
          .tokens()
          .find(({ user }) => user.role === OWNER && user.organizationId === caller.organizationId)
        return original(owner ? owner.user : caller, id)
      })
    },
  },
  {
    name: 'lets-viewers-delete',
    breaks: '§3 DELETE is 403 for CLIENT_VIEWER',
    caughtBy: /viewer/i,
    apply({ state }) {
      wrapStore(
        state,
        'deleteUser',
        (original) => (caller, id) =>
          original(caller.role === 'CLIENT_VIEWER' ? asRole(caller, 'CLIENT_ADMIN') : caller, id),
      )
    },
  },
  // ── Tenant isolation (§3)
  {
    name: 'answers-403-for-other-organizations',
    breaks: "§3 another organization's id is 404, never 403",
    caughtBy: /404|organization|outsider/i,
    apply({ state }) {
      wrapStore(state, 'getUser', (original, store) => (caller, id) => {
        const user = findAnywhere(store, id)
        if (user && user.organizationId !== caller.organizationId) throw new AppError('FORBIDDEN', 'Not yours.')
        return original(caller, id)
      })
    },
  },
  {
    name: 'shows-other-organizations-users',
    breaks: '§3 existence never leaks across organizations',
    caughtBy: /404|organization|outsider/i,
    apply({ state }) {
      wrapStore(state, 'getUser', (original, store) => (caller, id) => {
        const user = findAnywhere(store, id)
        return user && user.organizationId !== caller.organizationId ? user : original(caller, id)
      })
    },
  },
  {
    name: 'lists-other-organizations',
    breaks: "§4 the list never shows another organization's users",
    caughtBy: /organization|outsider/i,
    apply({ state }) {
      wrapStore(state, 'listUsers', (original, store) => (caller, query) => {
        const page = original(caller, query)
        const stranger = store.tokens().find(({ user }) => user.organizationId !== caller.organizationId)?.user
        return stranger && query.page === 1 ? { ...page, data: [...page.data, stranger].slice(-query.limit) } : page
      })
    },
  },
  // ── Listing (§4)
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
  // ── GET /me (§4)
  {
    name: 'allows-patch-on-me',
    breaks: '§4 PATCH /api/users/me is a 405 with Allow: GET',
    caughtBy: /405|Allow|\bme\b/i,
    apply(internals) {
      // Before the engine, which would answer the 405.
      wrapEngine(internals, async (request, next) => {
        if (request.method !== 'PATCH' || pathOf(request) !== '/api/users/me') return next(request)
        const token = request.headers.authorization?.replace(/^Bearer +/i, '') ?? ''
        const caller = internals.state.store.authenticate(token)
        const headers = { 'content-type': 'application/json; charset=utf-8' }
        return { status: 200, headers, body: JSON.stringify({ data: caller }) }
      })
    },
  },
  // ── PATCH (§4)
  {
    name: 'ignores-unknown-keys',
    breaks: '§4 an unknown key in a PATCH body is a 400',
    caughtBy: /unknown key|400/i,
    apply(internals) {
      wrapEngine(internals, (request, next) => {
        if (request.method !== 'PATCH' || request.body === undefined) return next(request)
        let body: unknown
        try {
          body = JSON.parse(new TextDecoder().decode(request.body))
        } catch {
          return next(request)
        }
        if (!body || typeof body !== 'object' || Array.isArray(body)) return next(request)
        const known = Object.fromEntries(
          Object.entries(body).filter(([key]) => ['name', 'role', 'status'].includes(key)),
        )
        return next({ ...request, body: new TextEncoder().encode(JSON.stringify(known)) })
      })
    },
  },
  {
    name: 'ignores-keys-named-like-object-members',
    breaks: '§4 a key named like a member of every object (constructor, toString, __proto__) is an unknown key: 400',
    caughtBy: /built-in/i,
    apply(internals) {
      // A backend that asks `key in allowed` of a plain object: Object.prototype's names pass as allowed,
      // and nothing is done with them.
      const allowed: Record<string, true> = { name: true, role: true, status: true }
      wrapEngine(internals, (request, next) => {
        const patch = request.method === 'PATCH' ? parseJsonObject(request.body) : undefined
        if (!patch || !Object.keys(patch).every((key) => key in allowed)) return next(request)
        const known = Object.fromEntries(Object.entries(patch).filter(([key]) => Object.hasOwn(allowed, key)))
        const current = findAnywhere(internals.state.store, idOf(request))
        // Only ignored keys: nothing to do, the user as they are (a no-op PATCH of their own name).
        const body = Object.keys(known).length > 0 || !current ? known : { name: current.name }
        return next({ ...request, body: new TextEncoder().encode(JSON.stringify(body)) })
      })
    },
  },
  {
    name: 'accepts-any-content-type',
    breaks: '§4 a body that is not application/json is a 415',
    caughtBy: /415|content.type|text\/plain/i,
    apply(internals) {
      rewriteRequest(internals, (request) =>
        request.method === 'PATCH' && request.headers['content-type']?.startsWith('text/plain')
          ? { ...request, headers: { ...request.headers, 'content-type': 'application/json' } }
          : request,
      )
    },
  },
  {
    name: 'stores-names-untrimmed',
    breaks: '§1 names are stored trimmed',
    caughtBy: /trim/i,
    apply({ state }) {
      wrapStore(state, 'updateUser', (original, store) => (caller, id, patch) => {
        const user = original(caller, id, patch)
        if (patch.name !== undefined && patch.name !== patch.name.trim())
          return storeChanged(store, user, { name: patch.name })
        return user
      })
    },
  },
  {
    name: 'bumps-updated-at-on-no-op',
    breaks: '§4 setting a field to its value changes nothing (updatedAt stays)',
    caughtBy: /updatedAt|no-op|changes nothing/i,
    apply({ state }) {
      wrapStore(state, 'updateUser', (original, store) => (caller, id, patch) => {
        const user = original(caller, id, patch)
        const updatedAt = new Date(Math.max(Date.now(), Date.parse(user.updatedAt) + 1)).toISOString()
        return storeChanged(store, user, { updatedAt })
      })
    },
  },
  {
    name: 'moves-updated-at-on-renames-only',
    breaks: '§1 every PATCH that changes a field moves updatedAt, a change of role or status alone included',
    caughtBy: /a change of role or status alone/i,
    apply({ state }) {
      // A backend whose "touch" is in the rename's code path only.
      wrapStore(state, 'updateUser', (original, store) => (caller, id, patch) => {
        const before = findAnywhere(store, id)
        const user = original(caller, id, patch)
        if (before && user.name === before.name && user.updatedAt !== before.updatedAt)
          return storeChanged(store, user, { updatedAt: before.updatedAt })
        return user
      })
    },
  },
  {
    name: 'activates-invited-users',
    breaks: '§4 the status of an INVITED user cannot change: 409',
    caughtBy: /INVITED|409/i,
    apply({ state }) {
      wrapStore(state, 'updateUser', (original, store) => (caller, id, patch) => {
        const user = findAnywhere(store, id)
        if (user?.status === 'INVITED' && patch.status && caller.role === OWNER) {
          return storeChanged(store, user, { status: patch.status })
        }
        return original(caller, id, patch)
      })
    },
  },
  // ── DELETE (§4)
  {
    name: 'deletes-with-a-body',
    breaks: '§4 DELETE answers 204 with an empty body',
    caughtBy: /204|empty|body/i,
    apply(internals) {
      rewriteResponse(internals, (response, request) => {
        if (request.method !== 'DELETE' || response.status !== 204) return
        const headers = { ...response.headers, 'content-type': 'application/json; charset=utf-8' }
        return { status: 200, headers, body: JSON.stringify({ deleted: true }) }
      })
    },
  },
  {
    name: 'keeps-deleted-users-listed',
    breaks: '§4 a deleted user no longer appears in the list',
    caughtBy: /list|gone|deleted/i,
    apply({ state }) {
      const deleted: User[] = []
      wrapStore(state, 'deleteUser', (original, store) => (caller, id) => {
        const user = findAnywhere(store, id)
        original(caller, id)
        if (user) deleted.push(user)
      })
      wrapStore(state, 'listUsers', (original) => (caller, query) => {
        const page = original(caller, query)
        const ghosts = deleted.filter((user) => user.organizationId === caller.organizationId)
        return {
          ...page,
          data: [...ghosts, ...page.data].slice(0, query.limit),
          meta: { ...page.meta, total: page.meta.total + ghosts.length },
        }
      })
    },
  },
  // ── Errors (§5) and other routes
  {
    name: 'sends-errors-as-plain-json',
    breaks: '§5 every error is application/problem+json',
    caughtBy: /problem\+json/i,
    apply(internals) {
      rewriteResponse(internals, (response) => {
        if (response.status >= 400) response.headers['content-type'] = 'application/json; charset=utf-8'
      })
    },
  },
  {
    name: 'drops-validation-errors',
    breaks: '§5 a 400 carries errors',
    caughtBy: /errors/i,
    apply(internals) {
      rewriteJson(internals, (body, _request, response) => {
        if (response.status === 400) delete body.errors
        return body
      })
    },
  },
  {
    name: 'drops-allow-on-405',
    breaks: '§4 a 405 carries Allow',
    caughtBy: /allow/i,
    apply(internals) {
      rewriteResponse(internals, (response) => {
        delete response.headers.allow
      })
    },
  },
  {
    name: 'accepts-oversized-bodies-as-bad-requests',
    breaks: '§5 bodies over 16 KiB are a 413',
    caughtBy: /413|16 KiB|too large/i,
    apply(internals) {
      rewriteJson(internals, (body, _request, response) => {
        if (response.status !== 413) return body
        response.status = 400
        return {
          ...body,
          status: 400,
          code: 'VALIDATION_FAILED',
          title: 'Bad Request',
          errors: [{ in: 'body', path: '', message: 'too big' }],
        }
      })
    },
  },
  {
    name: 'answers-unknown-routes',
    breaks: '§4 any other path under /api is a 404',
    caughtBy: /404|unknown route|NOT_FOUND/i,
    apply(internals) {
      wrapEngine(internals, async (request, next) =>
        pathOf(request) === '/api/nothing'
          ? { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"data":[]}' }
          : next(request),
      )
    },
  },
  {
    name: 'drops-a-required-field',
    breaks: '§1 every user has createdAt (schema conformance)',
    caughtBy: /body-matches-schema|createdAt/i,
    apply(internals) {
      rewriteJson(internals, (body) => {
        const data = body.data as Record<string, unknown> | undefined
        if (data && !Array.isArray(data)) delete data.createdAt
        return body
      })
    },
  },
  {
    name: 'signs-webhooks-with-another-secret',
    breaks: "§6 deliveries are signed with the endpoint's secret",
    caughtBy: /signed the Standard Webhooks way/i,
    apply({ mock }) {
      const subscribe = mock.webhooks.subscribe
      mock.webhooks.subscribe = (request) => subscribe({ ...request, secret: generateWebhookSecret() })
    },
  },
  {
    name: 'sends-no-user-deleted-event',
    breaks: '§6 a DELETE that answered 204 sends user.deleted',
    caughtBy: /sends user\.deleted/i,
    apply({ mock }) {
      const publish = mock.webhooks.publish
      mock.webhooks.publish = (event) => (event.type === 'user.deleted' ? undefined : publish(event))
    },
  },
  {
    name: 'sends-an-event-for-a-no-op-patch',
    breaks: '§6 a no-op PATCH sends no event',
    caughtBy: /changes nothing and any refused request send no event/i,
    apply({ state, mock }) {
      wrapStore(state, 'updateUser', (original) => (caller, id, patch) => {
        const before = findAnywhere(state.store, id)?.updatedAt
        const user = original(caller, id, patch)
        if (user.updatedAt === before) {
          const timestamp = new Date().toISOString()
          mock.webhooks.publish({
            type: 'user.updated',
            timestamp,
            data: { user: { ...user }, changes: ['name'], actorId: caller.id },
          })
        }
        return user
      })
    },
  },
  {
    name: 'sends-the-event-before-the-change-is-visible',
    breaks: '§6 an event is sent after the change is visible',
    caughtBy: /after the change is visible/i,
    apply(internals) {
      const { mock, state } = internals
      const publish = mock.webhooks.publish
      let swallowNext = false
      mock.webhooks.publish = (event) => (swallowNext ? void (swallowNext = false) : publish(event))
      // A rename's event goes out first, built from the request; the rename follows once it was delivered (at
      // most a second later): a fixed 60 ms was outlasted by a busy machine's delivery, a fixed second by the
      // suite's many renames.
      wrapEngine(internals, async (request, next) => {
        const id = pathOf(request).split('/')[3]
        const user = request.method === 'PATCH' && id ? findAnywhere(state.store, id) : undefined
        const patch = user ? parseJsonObject(request.body) : undefined
        if (!user || !patch || Object.keys(patch).join() !== 'name') return next(request)
        const token = String(request.headers['authorization'] ?? '').replace(/^Bearer /, '')
        const actorId = state.store.tokens().find((entry) => entry.token === token)?.user.id ?? user.id
        const timestamp = new Date().toISOString()
        publish({
          type: 'user.updated',
          timestamp,
          data: { user: { ...user, ...patch, updatedAt: timestamp }, changes: ['name'], actorId },
        })
        await Promise.race([mock.webhooks.idle(), new Promise((resolve) => setTimeout(resolve, 1_000))])
        swallowNext = true
        try {
          return await next(request)
        } finally {
          swallowNext = false
        }
      })
    },
  },
  {
    name: 'applies-the-valid-part-of-a-refused-body',
    breaks: '§4/§5 a PATCH refused with 400 changes nothing, its valid fields included',
    caughtBy: /beside/i,
    apply(internals) {
      wrapEngine(internals, async (request, next) => {
        const patch = request.method === 'PATCH' ? parseJsonObject(request.body) : undefined
        if (patch && typeof patch['name'] === 'string' && Object.keys(patch).length > 1) {
          // The name is stored before the rest of the body is judged.
          const body = new TextEncoder().encode(JSON.stringify({ name: patch['name'] }))
          await next({ ...request, body })
        }
        return next(request)
      })
    },
  },
  {
    name: 'never-retries-a-webhook',
    breaks: '§6 a delivery without a 2xx answer is retried',
    caughtBy: /is retried, at least 3 times, with the same webhook-id/i,
    apply() {},
    mockOptions: { webhooks: { retryDelaysMs: [] } },
  },
  {
    name: 'retries-a-webhook-only-twice',
    breaks: '§6 a delivery without a 2xx answer is retried at least 3 times',
    caughtBy: /is retried, at least 3 times, with the same webhook-id/i,
    apply() {},
    mockOptions: { webhooks: { retryDelaysMs: [100, 200] } },
  },
  {
    name: 'names-every-field-sent-in-changes',
    breaks: '§6 changes names the fields whose value changed, not every field the PATCH sent',
    caughtBy: /"changes" names exactly the fields/i,
    apply({ mock }) {
      const publish = mock.webhooks.publish
      let sent: string[] = []
      wrapEngineBodies(mock, (patch) => (sent = Object.keys(patch)))
      mock.webhooks.publish = (event) =>
        publish(event.type === 'user.updated' ? { ...event, data: { ...event.data, changes: sent as never } } : event)
    },
  },
  {
    name: 'sends-events-for-renames-only',
    breaks: '§6 a PATCH that changes the status or the role sends user.updated too',
    caughtBy: /"changes" names exactly the fields|sends user\.updated/i,
    apply({ mock }) {
      const publish = mock.webhooks.publish
      mock.webhooks.publish = (event) =>
        event.type === 'user.updated' && !event.data.changes.includes('name') ? undefined : publish(event)
    },
  },
  {
    name: 'sends-an-event-for-a-refused-request',
    breaks: '§6 a refused request (here a 415) sends no event',
    caughtBy: /changes nothing and any refused request send no event/i,
    apply(internals) {
      const { mock, state } = internals
      wrapEngine(internals, async (request, next) => {
        const response = await next(request)
        const id = idOf(request)
        const user = request.method === 'PATCH' && response.status === 415 ? findAnywhere(state.store, id) : undefined
        if (user) {
          const timestamp = new Date().toISOString()
          mock.webhooks.publish({
            type: 'user.updated',
            timestamp,
            data: { user: { ...user }, changes: ['name'], actorId: user.id },
          })
        }
        return response
      })
    },
  },
  {
    name: 'answers-after-delivering',
    breaks: "§6 delivering never slows down the API's answer",
    caughtBy: /Delivering never slows down or alters the API's own answer/i,
    apply(internals) {
      const { mock } = internals
      wrapEngine(internals, async (request, next) => {
        const response = await next(request)
        // The answer waits for the change's first delivery attempts, 3 s at most: a synchronous delivery
        // whose client gives up after 3 s and leaves the connection open.
        const event = request.method === 'PATCH' && response.status === 200 ? mock.webhooks.events().at(-1) : undefined
        const answered = (delivery: { attempts: Array<{ status?: number; error?: string }> }): boolean =>
          delivery.attempts.some((attempt) => attempt.status !== undefined || attempt.error !== undefined)
        const waits = event !== undefined && mock.webhooks.endpoints().length > 0
        for (let waited = 0; waits && waited < 3_000; waited += 20) {
          if (event.deliveries.length > 0 && event.deliveries.every(answered)) break
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
        return response
      })
    },
  },
  {
    name: 'answers-only-once-its-delivery-is-answered',
    breaks: "§6 delivering never slows down the API's answer (the answer waits for the delivery, however long)",
    caughtBy: /Delivering never slows down or alters the API's own answer/i,
    apply(internals) {
      const { mock } = internals
      wrapEngine(internals, async (request, next) => {
        const before = mock.webhooks.events().at(-1)
        const response = await next(request)
        // A synchronous delivery without a limit of its own: the answer waits until each delivery of the
        // events this request made is over (delivered, or its last retry failed), however long it takes.
        const recent = mock.webhooks.events()
        const own = recent.slice(before === undefined ? 0 : recent.indexOf(before) + 1)
        const queued = Date.now() + 200
        const over = (): boolean =>
          own.every(
            (event) =>
              (event.deliveries.length > 0 || Date.now() > queued) &&
              event.deliveries.every((delivery) => delivery.state !== 'pending'),
          )
        while (!over()) await new Promise((resolve) => setTimeout(resolve, 20))
        return response
      })
    },
  },
  {
    name: 'signs-webhooks-with-a-timestamp-in-milliseconds',
    breaks: '§6 webhook-timestamp is Unix seconds (signed as sent: the signature is right, the time is not)',
    caughtBy: /signed the Standard Webhooks way/i,
    apply({ app, mock }) {
      // Every endpoint is subscribed through a relay that sends on each delivery with the time in
      // milliseconds, signed with the endpoint's own secret over what it sends.
      const relay = createServer((request, response) => {
        const chunks: Buffer[] = []
        request.on('data', (chunk: Buffer) => chunks.push(chunk))
        request.on('end', () => {
          const target = new URL(request.url ?? '/', 'http://relay').searchParams
          const body = Buffer.concat(chunks).toString('utf8')
          const id = String(request.headers['webhook-id'])
          const milliseconds = String(Number(request.headers['webhook-timestamp']) * 1000)
          const key = Buffer.from((target.get('secret') ?? '').replace(/^whsec_/, ''), 'base64')
          const signature = createHmac('sha256', key).update(`${id}.${milliseconds}.${body}`).digest('base64')
          fetch(target.get('to') ?? '', {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'webhook-id': id,
              'webhook-timestamp': milliseconds,
              'webhook-signature': `v1,${signature}`,
            },
            body,
          }).then(
            (answer) => response.writeHead(answer.status).end(),
            () => response.writeHead(502).end(),
          )
        })
      })
      relay.listen(0, '127.0.0.1')
      app.addHook('onClose', async () => {
        relay.closeAllConnections()
        await new Promise((resolve) => relay.close(resolve))
      })
      const subscribe = mock.webhooks.subscribe
      mock.webhooks.subscribe = (request) => {
        const { port } = relay.address() as AddressInfo
        const query = new URLSearchParams({ to: request.url, secret: request.secret ?? '' })
        return subscribe({ ...request, url: `http://127.0.0.1:${port}/?${query}` })
      }
    },
  },
  {
    name: 'sends-every-organizations-events-to-every-endpoint',
    breaks: "§6 an event goes to the endpoints subscribed for the user's organization",
    caughtBy: /endpoints subscribed for the user's organization only/i,
    apply({ mock }) {
      const subscribe = mock.webhooks.subscribe
      mock.webhooks.subscribe = ({ organizationId: _all, ...request }) => subscribe(request)
    },
  },
  {
    name: 'sends-user-deleted-with-the-user-as-first-seen',
    breaks: '§6 user.deleted carries the user as they were at the deletion',
    caughtBy: /differs from the user at the DELETE/i,
    apply({ mock, state }) {
      // A cache of users filled when they are added and never updated.
      const firstSeen = new Map(state.store.tokens().map(({ user }) => [user.id, { ...user }]))
      wrapStore(state, 'addUser', (original) => (user) => {
        const added = original(user)
        firstSeen.set(added.id, { ...added })
        return added
      })
      const publish = mock.webhooks.publish
      mock.webhooks.publish = (event) => {
        const cached = event.type === 'user.deleted' ? firstSeen.get(event.data.user.id) : undefined
        publish(cached && event.type === 'user.deleted' ? { ...event, data: { ...event.data, user: cached } } : event)
      }
    },
  },
  {
    name: 'sends-events-out-of-order',
    breaks: "§6 one user's events go out in the order of the changes",
    caughtBy: /in the order of the changes/i,
    apply({ mock }) {
      const publish = mock.webhooks.publish
      let count = 0
      // Every other event waits 150 ms before it is queued: the next one overtakes it.
      mock.webhooks.publish = (event) => {
        count += 1
        if (count % 2 === 0) publish(event)
        else setTimeout(() => publish(event), 150)
      }
    },
  },
  {
    name: 'names-the-owner-as-every-actor',
    breaks: '§6 actorId is the user who made the change',
    caughtBy: /"actorId"/i,
    apply({ mock, state }) {
      const publish = mock.webhooks.publish
      mock.webhooks.publish = (event) => {
        const owner = state.store
          .tokens()
          .find(({ user }) => user.role === OWNER && user.organizationId === event.data.user.organizationId)
        const actorId = owner?.user.id ?? event.data.actorId
        publish(
          event.type === 'user.updated'
            ? { ...event, data: { ...event.data, actorId } }
            : { ...event, data: { ...event.data, actorId } },
        )
      }
    },
  },
  // ── Lists, errors and the order of checks: the holes issue 18 found
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
    name: 'gives-about-blank-its-own-title',
    breaks: '§5 with type about:blank, title is the reason phrase of the status',
    caughtBy: /with about:blank, title is the reason phrase/i,
    apply(internals) {
      rewriteJson(internals, (body) =>
        body.type === 'about:blank' ? { ...body, title: 'Something went wrong' } : body,
      )
    },
  },
  {
    name: 'lists-100-issues-without-counting-them',
    breaks: '§5 when more than 100 issues are found, detail says how many',
    caughtBy: /when there were more, detail says how many/i,
    apply(internals) {
      rewriteJson(internals, (body) =>
        Array.isArray(body.errors) && body.errors.length === 100 ? { ...body, detail: 'The body is invalid.' } : body,
      )
    },
  },
  {
    name: 'leaves-pointers-unescaped',
    breaks: '§5 a pointer escapes ~ and / (RFC 6901)',
    caughtBy: /escapes ~ as ~0 and \/ as ~1/i,
    apply(internals) {
      rewriteJson(internals, (body) => {
        if (!Array.isArray(body.errors)) return body
        const errors = (body.errors as Array<{ path: string }>).map((error) => ({
          ...error,
          path: error.path.replaceAll('~1', '/').replaceAll('~0', '~'),
        }))
        return { ...body, errors }
      })
    },
  },
  {
    name: 'judges-the-state-rule-before-the-body',
    breaks: '§3 validation (400) comes before the state rule (409): INVITED is no status a PATCH sets',
    caughtBy: /validation \(400\) before the state rule \(409\)/i,
    apply(internals) {
      const { state } = internals
      wrapEngine(internals, async (request, next) => {
        const id = idOf(request)
        const user = request.method === 'PATCH' ? findAnywhere(state.store, id) : undefined
        const patch = user?.status === 'INVITED' ? parseJsonObject(request.body) : undefined
        if (!patch || !('status' in patch)) return next(request)
        const problem = {
          type: 'about:blank',
          title: 'Conflict',
          status: 409,
          code: 'INVALID_TRANSITION',
          detail: 'An INVITED user accepts their invitation.',
        }
        return {
          status: 409,
          headers: { 'content-type': 'application/problem+json; charset=utf-8' },
          body: JSON.stringify(problem),
        }
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
    name: 'crashes-on-a-bad-query',
    breaks: '§3/§5 bad input is a 4xx, never a 500',
    caughtBy: /500|status-is-documented/i,
    apply(internals) {
      rewriteRequest(internals, (request) => {
        if (new URLSearchParams(request.url.split('?')[1] ?? '').get('limit') === 'abc') throw new Error('boom')
        return request
      })
    },
  },
  // ── Faults only the checks added with the suite's third round catch (each fails one of them alone)
  {
    name: 'lets-suspended-admins-and-bots-in',
    breaks: "§2 the token of a SUSPENDED user is a 401, whatever the user's role",
    caughtBy: /suspended (CLIENT_ADMIN|BOT_USER) is refused/i,
    apply({ state }) {
      acceptTokensOf(
        state,
        (user) => user.status === 'SUSPENDED' && (user.role === 'CLIENT_ADMIN' || user.role === 'BOT_USER'),
      )
    },
  },
  {
    name: 'lets-invited-users-in',
    breaks: '§2 the token of an INVITED user is a 401',
    caughtBy: /token of an INVITED user/i,
    apply({ state }) {
      acceptTokensOf(state, (user) => user.status === 'INVITED')
    },
  },
  {
    name: 'judges-impossible-ids-before-the-token',
    breaks: '§3 authentication (401) comes before validation (400), an id that cannot be an id included',
    caughtBy: /no token, an id/i,
    apply(internals) {
      const { state } = internals
      rewriteRequest(internals, (request) => {
        const id = pathOf(request).split('/')[3] ?? ''
        const impossible = id.length > 4096 || /%(?![0-9a-f]{2})/i.test(id)
        if (request.headers.authorization || !pathOf(request).startsWith('/api/users/') || !impossible) return request
        // The id is judged first: with the owner's token the engine answers the 400 it deserves.
        const owner = state.store.tokens().find(({ user }) => user.role === OWNER && user.status === 'ACTIVE')
        return owner ? { ...request, headers: { ...request.headers, authorization: `Bearer ${owner.token}` } } : request
      })
    },
  },
  {
    name: 'reads-forms-as-json',
    breaks: '§4 a PATCH body that is not application/json is a 415, a form included',
    caughtBy: /x-www-form-urlencoded/i,
    apply(internals) {
      rewriteRequest(internals, (request) => {
        if (request.method !== 'PATCH' || request.headers['content-type'] !== 'application/x-www-form-urlencoded')
          return request
        const form = Object.fromEntries(new URLSearchParams(new TextDecoder().decode(request.body)))
        const body = new TextEncoder().encode(JSON.stringify(form))
        return { ...request, body, headers: { ...request.headers, 'content-type': 'application/json' } }
      })
    },
  },
  {
    name: 'refuses-a-parameter-without-a-space',
    breaks: '§4 parameters such as charset are fine (RFC 9110: the space before them is optional)',
    caughtBy: /application\/json;charset=UTF-8 is accepted/,
    apply(internals) {
      rewriteRequest(internals, (request) =>
        request.method === 'PATCH' && /;\S/.test(request.headers['content-type'] ?? '')
          ? { ...request, headers: { ...request.headers, 'content-type': 'text/plain' } }
          : request,
      )
    },
  },
  {
    name: 'judges-the-media-type-before-the-method',
    breaks: '§3 route and method (405) come before the media type (415)',
    caughtBy: /does not answer, Content-Type text\/plain/i,
    apply(internals) {
      rewriteRequest(internals, (request) => {
        const unanswered =
          (request.method === 'PATCH' && pathOf(request) === '/api/users/me') ||
          (request.method === 'POST' && pathOf(request) === '/api/users')
        // Sent where PATCH reads a media type, it gets the 415 the method should have come before.
        return unanswered && request.headers['content-type'] === 'text/plain'
          ? { ...request, method: 'PATCH', url: '/api/users/usr_nobody' }
          : request
      })
    },
  },
  {
    name: 'renames-an-invited-user-before-refusing-its-status',
    breaks: '§4 a PATCH refused with 409 changes nothing (RFC 5789 §2)',
    caughtBy: /409 changes nothing/i,
    apply({ state }) {
      wrapStore(state, 'updateUser', (original, store) => (caller, id, patch) => {
        const user = findAnywhere(store, id)
        if (user?.status === 'INVITED' && patch.status !== undefined && patch.name !== undefined) {
          original(caller, id, { name: patch.name })
        }
        return original(caller, id, patch)
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
  {
    name: 'points-role-and-status-issues-at-the-name',
    breaks: '§5 an issue in the body points at the key it is about',
    caughtBy: /the pointer points into the body/i,
    apply(internals) {
      rewriteJson(internals, (body) => {
        if (!Array.isArray(body.errors)) return body
        const errors = (body.errors as Array<{ path: string }>).map((error) =>
          error.path === '/role' || error.path === '/status' ? { ...error, path: '/name' } : error,
        )
        return { ...body, errors }
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
  // ── Valid requests refused, and what a list or a status shows: the faults issue 35 found the proxy missed
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
    name: 'refuses-a-body-of-exactly-16-kib',
    breaks: '§4 a body over 16 KiB is a 413: one of exactly 16,384 bytes is not',
    caughtBy: /Only bodies over 16 KiB are a 413/,
    apply(internals) {
      // An off-by-one: `>= 16384` where `> 16384` was meant.
      refuseWhen(internals, 413, (request) => request.body?.byteLength === 16_384)
    },
  },
  {
    name: 'answers-400-for-ids-of-another-form',
    breaks:
      '§3 an id that names nobody is a 404, whatever its form; only one not validly percent-encoded or too long is a 400',
    caughtBy: /An id that does not exist is a 404|names no user is a 404/,
    apply({ state }) {
      // A lookup that checks the id against the form the backend hands out (as one with UUIDs might), where
      // the store finds no user: after validation, in the place of the 404.
      const looksUp =
        <A extends unknown[], R>(original: (caller: User, id: string, ...rest: A) => R) =>
        (caller: User, id: string, ...rest: A): R => {
          if (!/^usr_[a-z2-7]{20}$/.test(id))
            throw new AppError('VALIDATION_FAILED', `The id ${id} is not a user id.`, {
              errors: [{ in: 'path', path: '/id', message: 'is not a user id' }],
            })
          return original(caller, id, ...rest)
        }
      wrapStore(state, 'getUser', looksUp)
      wrapStore(state, 'updateUser', looksUp)
      wrapStore(state, 'deleteUser', looksUp)
    },
  },
  {
    name: 'reads-media-types-case-sensitively',
    breaks: '§4 media types compare case-insensitively: Application/JSON is application/json',
    caughtBy: /Media types compare case-insensitively/,
    apply(internals) {
      rewriteRequest(internals, (request) => {
        const type = request.headers['content-type']?.split(';')[0]?.trim() ?? ''
        return request.method === 'PATCH' && type.toLowerCase() === 'application/json' && type !== 'application/json'
          ? { ...request, headers: { ...request.headers, 'content-type': 'text/plain' } }
          : request
      })
    },
  },
  {
    name: 'refuses-a-delete-with-a-body',
    breaks: '§4 where the operation reads no body, a body within 16 KiB is ignored, a DELETE included',
    caughtBy: /A body DELETE does not read is ignored/,
    apply(internals) {
      refuseWhen(
        internals,
        400,
        (request) => {
          const bytes = request.body?.byteLength ?? 0
          return request.method === 'DELETE' && bytes > 0 && bytes <= 16_384
        },
        'body',
        '',
      )
    },
  },
  {
    name: 'judges-the-state-rule-before-permission',
    breaks: "§3 permission (403) comes before the state rule (409): a viewer setting an INVITED user's status is a 403",
    caughtBy: /setting an INVITED user's status is a 403/,
    apply({ state }) {
      wrapStore(state, 'updateUser', (original, store) => (caller, id, patch) => {
        const user = findAnywhere(store, id)
        if (user?.organizationId === caller.organizationId && user.status === 'INVITED' && patch.status !== undefined)
          throw new AppError('INVALID_TRANSITION', 'An INVITED user accepts their invitation.')
        return original(caller, id, patch)
      })
    },
  },
  {
    name: 'hides-suspended-users-by-id',
    breaks: "§4 GET /api/users/:id answers a user of the caller's organization whatever their status",
    caughtBy: /SUSPENDED/,
    apply({ state }) {
      // A lookup by id that keeps to users who may sign in, as a query sharing the authentication's might.
      wrapStore(state, 'getUser', (original, store) => (caller, id) => {
        const user = findAnywhere(store, id)
        if (user?.status === 'SUSPENDED' && user.id !== caller.id)
          throw new AppError('USER_NOT_FOUND', `No user ${id} in your organization.`)
        return original(caller, id)
      })
    },
  },
  {
    name: 'answers-me-from-a-stale-cache',
    breaks: '§4 GET /api/users/me answers the caller as they are now',
    caughtBy: /the user sees the new name|the user has the new role/,
    apply(internals) {
      // The caller as first read for each token, kept for as long as the token is accepted: a cache of
      // /me that no change of the user empties.
      const cached = new Map<string, EngineResponse>()
      wrapEngine(internals, async (request, next) => {
        const response = await next(request)
        if (request.method !== 'GET' || pathOf(request) !== '/api/users/me' || response.status !== 200) return response
        const token = String(request.headers['authorization'] ?? '')
        const kept = cached.get(token) ?? response
        cached.set(token, kept)
        return kept
      })
    },
  },
  {
    name: 'reads-the-scheme-case-sensitively',
    breaks: '§2 the scheme matches case-insensitively: bearer is Bearer',
    caughtBy: /bearer is Bearer/,
    apply(internals) {
      rewriteRequest(internals, (request) => {
        const authorization = request.headers.authorization
        return authorization !== undefined && /^bearer /i.test(authorization) && !authorization.startsWith('Bearer ')
          ? { ...request, headers: { ...request.headers, authorization: `Basic ${authorization.slice(7)}` } }
          : request
      })
    },
  },
  {
    name: 'reads-the-token-after-one-space-only',
    breaks: '§2 spaces and tabs around the token are ignored',
    caughtBy: /Spaces and tabs around the token are ignored/,
    apply(internals) {
      // `authorization.slice('Bearer '.length)`: the white space beyond one space becomes part of the token.
      rewriteRequest(internals, (request) => {
        const authorization = request.headers.authorization
        return authorization !== undefined && /^Bearer [ \t]/.test(authorization)
          ? { ...request, headers: { ...request.headers, authorization: `Bearer x${authorization.slice(7)}` } }
          : request
      })
    },
  },
  {
    name: 'freezes-invited-users-whole',
    breaks: "§4 the state rule freezes an INVITED user's status only: their name and role can be set",
    caughtBy: /Only the status of an INVITED user is frozen/,
    apply({ state }) {
      wrapStore(state, 'updateUser', (original, store) => (caller, id, patch) => {
        const user = findAnywhere(store, id)
        if (user?.organizationId === caller.organizationId && user.status === 'INVITED' && caller.role === OWNER)
          throw new AppError('INVALID_TRANSITION', 'An INVITED user accepts their invitation first.')
        return original(caller, id, patch)
      })
    },
  },
  {
    name: 'refuses-to-reactivate-suspended-users',
    breaks: '§4 ACTIVE and SUSPENDED may turn into each other freely',
    caughtBy: /An owner may reactivate/,
    apply({ state }) {
      wrapStore(state, 'updateUser', (original, store) => (caller, id, patch) => {
        const user = findAnywhere(store, id)
        if (user?.organizationId === caller.organizationId && user.status === 'SUSPENDED' && patch.status === 'ACTIVE')
          throw new AppError('INVALID_TRANSITION', 'A SUSPENDED user stays suspended.')
        return original(caller, id, patch)
      })
    },
  },
]

/** Authentication that lets in the tokens of the users `wrongly` picks, whatever their status. */
function acceptTokensOf(state: MockInternals['state'], wrongly: (user: User) => boolean): void {
  wrapStore(state, 'authenticate', (original, store) => (token) => {
    const entry = store.tokens().find((candidate) => candidate.token === token)
    return entry && wrongly(entry.user) ? entry.user : original(token)
  })
}

/** The user id of a request to /api/users/{id}, decoded; '' when there is none or it cannot be decoded. */
function idOf(request: { url: string }): string {
  try {
    return decodeURIComponent(pathOf(request).split('/')[3] ?? '')
  } catch {
    return ''
  }
}

/** Calls `seen` with every PATCH body that is a JSON object, before the engine answers it. */
function wrapEngineBodies(mock: MockInternals['mock'], seen: (patch: Record<string, unknown>) => void): void {
  const original = mock.handle
  Object.defineProperty(mock, 'handle', {
    value: (request: Parameters<typeof original>[0]) => {
      const patch = request.method === 'PATCH' ? parseJsonObject(request.body) : undefined
      if (patch) seen(patch)
      return original(request)
    },
    configurable: true,
  })
}

/** A request body that is a JSON object, else undefined. */
function parseJsonObject(body: Uint8Array | undefined): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(body ?? new Uint8Array()))
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

/** The query of an engine request. */
function queryOf(request: { url: string }): URLSearchParams {
  return new URLSearchParams(request.url.split('?')[1] ?? '')
}

/** Whether a request addresses an operation of the document that can succeed: the list, or a user by id. */
function isOperation(request: { method: string; url: string }): boolean {
  const path = pathOf(request)
  if (path === '/api/users') return request.method === 'GET'
  const id = /^\/api\/users\/([^/]+)$/.exec(path)?.[1]
  return id !== undefined && id !== 'me' && ['GET', 'PATCH', 'DELETE'].includes(request.method)
}

/**
 * Answers the problem of `status` to the requests `wrongly` picks, once their token is accepted (a
 * refusal that comes where §3 puts validation, but refuses what the contract allows).
 */
function refuseWhen(
  internals: MockInternals,
  status: 400 | 413,
  wrongly: (request: Parameters<MockInternals['mock']['handle']>[0]) => boolean,
  part?: 'query' | 'path' | 'body',
  pointer?: string,
): void {
  wrapEngine(internals, async (request, next) => {
    const token = String(request.headers['authorization'] ?? '').replace(/^Bearer +/i, '')
    const known = internals.state.store
      .tokens()
      .some((entry) => entry.token === token && entry.user.status === 'ACTIVE')
    if (!known || !isOperation(request) || !wrongly(request)) return next(request)
    const problem = {
      type: 'about:blank',
      title: status === 400 ? 'Bad Request' : 'Content Too Large',
      status,
      code: status === 400 ? 'VALIDATION_FAILED' : 'PAYLOAD_TOO_LARGE',
      detail: 'Refused.',
      ...(status === 400 ? { errors: [{ in: part ?? 'body', path: pointer ?? '', message: 'is refused' }] } : {}),
    }
    const headers = { 'content-type': 'application/problem+json; charset=utf-8' }
    return { status, headers, body: JSON.stringify(problem) }
  })
}
