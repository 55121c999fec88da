import { findAnywhere, rewriteJson, storeChanged, wrapStore } from '../break-helpers.js'
import type { Mutant } from './mutant.js'

/** Broken implementations of §1 the user resource: its fields, names stored trimmed, updatedAt. */
export const USER_RESOURCE_MUTANTS: Mutant[] = [
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
]
