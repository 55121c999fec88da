import type { ListQuery, User, UserPatch } from '../../../../src/domain/user.js'
import { OWNER, asRole, findAnywhere, storeChanged, wrapStore } from '../break-helpers.js'
import type { Mutant } from './mutant.js'

/** Broken implementations of §3 who may do what: the permission table and the rules that hold whatever the role. */
export const PERMISSIONS_MUTANTS: Mutant[] = [
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
]
