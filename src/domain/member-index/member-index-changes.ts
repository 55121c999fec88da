import type { Role, User } from '../user.js'

/** A user as the index files them: the values of the moment they were added. */
export interface Member {
  user: User
  role: Role
  lowerName: string
  lowerEmail: string
  /** Position in list order among every filed user (deleted ones included); -1 until filed. */
  rank: number
}

/** What a user's change does to the index: unfile `before` (if any), file `after` (if any). */
export interface MemberChange {
  before: Member | undefined
  after: Member | undefined
}

/**
 * @example
 * toMember({ name: 'Élodie', email: 'E@x.io', … }) // { lowerName: 'élodie', lowerEmail: 'e@x.io', … }
 */
export function toMember(user: User): Member {
  // String.prototype.toLowerCase, never toLocaleLowerCase: CONTRACT §4 search is locale-independent.
  return { user, role: user.role, lowerName: lowerCase(user.name), lowerEmail: lowerCase(user.email), rank: -1 }
}

/**
 * The text lower-cased, or the very text when that changes nothing: `toLowerCase` may return an equal new
 * string, and did for the seed's emails (a second copy of each, ~5 MiB at 100,000 users).
 */
function lowerCase(text: string): string {
  const lower = text.toLowerCase()
  return lower === text ? text : lower
}

/**
 * Adds and removes not yet applied to the index, one net change per user id. Batching them lets a
 * PATCH (remove, then add the changed user) touch only what changed, and a bulk load be one sort
 * instead of thousands of insertions in the middle of long arrays. Past `newUserLimit` users not filed
 * yet, it keeps no change at all: filing everyone anew is what is left to do, and 100,000 seed users
 * would otherwise each hold a change object until the first query.
 *
 * @example
 * changes.recordRemove(old); changes.recordAdd(renamed)
 * changes.take() // [{ before: old, after: renamed }]
 */
export class PendingChanges {
  readonly #changes = new Map<string, MemberChange>()
  #newUsers = 0
  #overflowed = false

  constructor(private readonly newUserLimit = Number.POSITIVE_INFINITY) {}

  /** Call with the member as it is filed or pending now. */
  recordRemove(member: Member): void {
    if (this.#overflowed) return
    const change = this.#changes.get(member.user.id)
    if (change === undefined) this.#changes.set(member.user.id, { before: member, after: undefined })
    else {
      if (change.before === undefined && change.after !== undefined) this.#newUsers--
      change.after = undefined
    }
  }

  recordAdd(member: Member): void {
    if (this.#overflowed) return
    const change = this.#changes.get(member.user.id)
    if (change === undefined) {
      this.#changes.set(member.user.id, { before: undefined, after: member })
      this.#newUsers++
    } else {
      if (change.before === undefined && change.after === undefined) this.#newUsers++
      change.after = member
    }
    if (this.#newUsers > this.newUserLimit) {
      this.#changes.clear()
      this.#overflowed = true
    }
  }

  /** How many changes it holds (none once overflowed). */
  get size(): number {
    return this.#changes.size
  }

  /** How many of the changes file a user who is not filed yet. */
  get newUserCount(): number {
    return this.#newUsers
  }

  /** More new users came than `newUserLimit`: the changes are gone, and everyone is to be filed anew. */
  get overflowed(): boolean {
    return this.#overflowed
  }

  /** Forgets every change: a rebuild files everyone anew. */
  clear(): void {
    this.#changes.clear()
    this.#newUsers = 0
    this.#overflowed = false
  }

  /** The net changes, which are forgotten: the caller applies them. */
  take(): MemberChange[] {
    const changes = [...this.#changes.values()]
    this.clear()
    return changes
  }
}
