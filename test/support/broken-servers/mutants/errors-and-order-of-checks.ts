import { AppError } from '../../../../src/errors.js'
import type { User } from '../../../../src/domain/user.js'
import {
  OWNER,
  findAnywhere,
  idOf,
  parseJsonObject,
  pathOf,
  refuseWhen,
  rewriteJson,
  rewriteRequest,
  rewriteResponse,
  wrapEngine,
  wrapStore,
} from '../break-helpers.js'
import type { Mutant } from './mutant.js'

/** Broken implementations of §5 errors and §3 the order of checks, with the other routes of §4 (404, 405) and the size limit (413). */
export const ERRORS_AND_ORDER_OF_CHECKS_MUTANTS: Mutant[] = [
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
    name: 'refuses-a-body-of-exactly-16-kib',
    breaks: '§4 a body over 16 KiB is a 413: one of exactly 16,384 bytes is not',
    caughtBy: /Only bodies over 16 KiB are a 413/,
    apply(internals) {
      // An off-by-one: `>= 16384` where `> 16384` was meant.
      refuseWhen(internals, 413, (request) => request.body?.byteLength === 16_384)
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
]
