import type { User } from '../../../../src/domain/user.js'
import { findAnywhere, refuseWhen, rewriteResponse, wrapStore } from '../break-helpers.js'
import type { Mutant } from './mutant.js'

/** Broken implementations of §4 DELETE /api/users/:id. */
export const DELETE_USER_MUTANTS: Mutant[] = [
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
]
