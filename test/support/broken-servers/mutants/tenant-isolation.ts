import { AppError } from '../../../../src/errors.js'
import { findAnywhere, wrapStore } from '../break-helpers.js'
import type { Mutant } from './mutant.js'

/** Broken implementations of §3 and §4 another organization's users: 404 by id, never listed. */
export const TENANT_ISOLATION_MUTANTS: Mutant[] = [
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
]
