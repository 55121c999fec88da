import type { PatchKeys } from '../contract/rules/permission-table.js'
import { isRole, type Role } from '../spec/roles.js'
import { BoundedMap } from './bounded-map.js'
import type { ObservedExchange } from './observed-exchange.js'
import { readPatchBody } from './patch-body.js'
import type { Span, UserBook } from './user-book.js'

/** A PATCH answered 409, as the permission table reads it, but for the caller's role. */
export interface Conflict extends Span {
  /** The user it addressed. */
  userId: string
  patch: PatchKeys
  /** The target's role, where the proxy was sure of it when the PATCH came. */
  target?: Role
  /** The request, for people: method, path and body. */
  request: string
}

/** Conflicts kept per token until the token's /me says who sent them: a few, as a client sends. */
const PER_TOKEN = 8

/**
 * The 409s answered to tokens the proxy did not know yet: judged by permission-comes-before-the-state-rule
 * once the token's /me says whose it is. Bounded: tokens as callers are, a few conflicts each.
 */
export class ConflictBook {
  private readonly conflicts: BoundedMap<string, Conflict[]>

  constructor(limit: number) {
    this.conflicts = new BoundedMap(limit)
  }

  remember(token: string, conflict: Conflict): void {
    const kept = [...(this.conflicts.get(token) ?? []), conflict].slice(-PER_TOKEN)
    this.conflicts.set(token, kept)
  }

  of(token: string): readonly Conflict[] {
    return this.conflicts.get(token) ?? []
  }

  forget(token: string): void {
    this.conflicts.delete(token)
  }
}

/** A PATCH answered 409 as a conflict, or undefined when its body is no JSON object or it has no id. */
export function toConflict(observed: ObservedExchange, users: UserBook): Conflict | undefined {
  const { userId, startedAt, endedAt } = observed
  const patch = readPatchBody(observed) as PatchKeys | undefined
  if (userId === undefined || !patch) return undefined
  const target = users.sureSnapshot(userId, observed, [startedAt])?.role
  return {
    userId,
    patch,
    startedAt,
    endedAt,
    request: `PATCH ${observed.path} ${observed.exchange.request.body ?? ''}`,
    ...(isRole(target) ? { target } : {}),
  }
}
