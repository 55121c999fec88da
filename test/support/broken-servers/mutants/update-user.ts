import { AppError } from '../../../../src/errors.js'
import {
  OWNER,
  findAnywhere,
  idOf,
  parseJsonObject,
  rewriteRequest,
  storeChanged,
  wrapEngine,
  wrapStore,
} from '../break-helpers.js'
import type { Mutant } from './mutant.js'

/** Broken implementations of §4 PATCH /api/users/:id: the body, its media type, the state rule, a refusal that changes nothing. */
export const UPDATE_USER_MUTANTS: Mutant[] = [
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
]
