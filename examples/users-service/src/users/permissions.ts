// docs/contract.md §3: who may do what. The caller and the target are of one organization by now
// (a user of another organization is a 404 before any of this is asked).

export type Role = 'CLIENT_OWNER' | 'CLIENT_ADMIN' | 'CLIENT_VIEWER' | 'BOT_USER'
export const ROLES: readonly Role[] = ['CLIENT_OWNER', 'CLIENT_ADMIN', 'CLIENT_VIEWER', 'BOT_USER']

export interface Member {
  id: string
  role: Role
}

/** The fields a PATCH sends (whatever their values: a key counts even when it changes nothing). */
export interface PatchKeys {
  name: boolean
  role: boolean
  status: boolean
  /** The role the PATCH asks for, when it sends one. */
  newRole?: Role
}

export function mayList(caller: Member): boolean {
  return caller.role !== 'BOT_USER'
}

export function mayRead(caller: Member, target: Member): boolean {
  return caller.role !== 'BOT_USER' || caller.id === target.id
}

export function mayPatch(caller: Member, target: Member, keys: PatchKeys): boolean {
  const own = caller.id === target.id
  // Nobody changes their own role or status, even to the value it has.
  if (own) return !keys.role && !keys.status
  if (caller.role === 'CLIENT_OWNER') return true
  if (caller.role === 'CLIENT_ADMIN') return target.role !== 'CLIENT_OWNER' && keys.newRole !== 'CLIENT_OWNER'
  return false
}

export function mayDelete(caller: Member, target: Member): boolean {
  if (caller.id === target.id) return false
  if (caller.role === 'CLIENT_OWNER') return true
  return caller.role === 'CLIENT_ADMIN' && target.role !== 'CLIENT_OWNER'
}
