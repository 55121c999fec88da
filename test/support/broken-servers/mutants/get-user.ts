import { AppError } from '../../../../src/errors.js'
import type { EngineResponse } from '../../../../src/engine/engine-request.js'
import { findAnywhere, pathOf, wrapEngine, wrapStore } from '../break-helpers.js'
import type { Mutant } from './mutant.js'

/** Broken implementations of §4 GET /api/users/me and GET /api/users/:id. */
export const GET_USER_MUTANTS: Mutant[] = [
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
]
