import { AppError } from '../errors.js'
import type { Role, User, UserPatch } from './user.js'

/**
 * CONTRACT §3 as one table. `own`: only on oneself; `not-owner`: on anyone but a CLIENT_OWNER.
 * The rules for everyone (nobody changes their own role or status, nobody deletes themselves,
 * admins never grant CLIENT_OWNER) sit in the functions below the table.
 */
type Grant = 'yes' | 'own' | 'not-owner' | 'no'
type Action = 'list' | 'read' | 'rename' | 'change-role-or-status' | 'delete'

const PERMISSIONS: Record<Role, Record<Action, Grant>> = {
  //                list   read   rename        change-role-or-status  delete
  CLIENT_OWNER: row('yes', 'yes', 'yes', /*  */ 'yes', /*         */ 'yes'),
  CLIENT_ADMIN: row('yes', 'yes', 'not-owner', 'not-owner', /*   */ 'not-owner'),
  CLIENT_VIEWER: row('yes', 'yes', 'own', /*  */ 'no', /*          */ 'no'),
  BOT_USER: row('no', 'own', 'own', /*        */ 'no', /*          */ 'no'),
}

function row(list: Grant, read: Grant, rename: Grant, changeRoleOrStatus: Grant, remove: Grant): Record<Action, Grant> {
  return { list, read, rename, 'change-role-or-status': changeRoleOrStatus, delete: remove }
}

const VERBS: Record<Action, string> = {
  list: 'list',
  read: 'read',
  rename: 'rename',
  'change-role-or-status': 'change the role or status of',
  delete: 'delete',
}

function allows(caller: User, action: Action, target?: User): boolean {
  const grant = PERMISSIONS[caller.role][action]
  if (grant === 'yes') return true
  if (grant === 'no' || !target) return false
  if (grant === 'own') return target.id === caller.id
  if (grant === 'not-owner') return target.role !== 'CLIENT_OWNER'
  throw new Error(`Unknown grant ${String(grant)} in the permission table.`)
}

/** Throws FORBIDDEN, saying which rule of the table refused, unless the table allows it. */
function assertAllowed(caller: User, action: Action, target?: User): void {
  if (allows(caller, action, target)) return
  forbid(`A ${caller.role} ${REFUSALS[PERMISSIONS[caller.role][action]](VERBS[action])}.`)
}

/** Which rule of the table refused, in words. */
const REFUSALS: Record<Grant, (verb: string) => string> = {
  own: (verb) => `may ${verb} only itself`,
  'not-owner': (verb) => `may not ${verb} a CLIENT_OWNER`,
  no: (verb) => `may not ${verb} users`,
  yes: (verb) => `may not ${verb} users`,
}

export function assertMayList(caller: User): void {
  assertAllowed(caller, 'list')
}

export function assertMayRead(caller: User, target: User): void {
  assertAllowed(caller, 'read', target)
}

export function assertMayUpdate(caller: User, target: User, patch: UserPatch): void {
  const changesRoleOrStatus = 'role' in patch || 'status' in patch
  // CONTRACT §3: a PATCH of oneself with a role or status key is 403, even to the current value.
  if (caller.id === target.id && changesRoleOrStatus) forbid('Nobody changes their own role or status.')
  if ('name' in patch) assertAllowed(caller, 'rename', target)
  if (changesRoleOrStatus) assertAllowed(caller, 'change-role-or-status', target)
  if (patch.role === 'CLIENT_OWNER' && caller.role !== 'CLIENT_OWNER') {
    forbid(`A ${caller.role} may never make anyone a CLIENT_OWNER.`)
  }
}

export function assertMayDelete(caller: User, target: User): void {
  if (caller.id === target.id) forbid('Nobody deletes themselves.')
  assertAllowed(caller, 'delete', target)
}

function forbid(message: string): never {
  throw new AppError('FORBIDDEN', message)
}
