import { BoundedMap } from './bounded-map.js'
import type { SeenUser } from './users-in-answer.js'
import { WriteHistory } from './write-history.js'

/** When an exchange happened, on the proxy's clock. */
export interface Span {
  startedAt: number
  endedAt: number
}

/** A user as one answer showed them, and when: on the proxy's clock, and in ms (performance.now). */
export interface Snapshot extends Span {
  user: SeenUser
  seenAt: number
}

/** The key of WriteHistory that every write moves: for rules about lists, which any write may change. */
export const ANY_USER = '*'

/**
 * What the proxy saw of users: each one's latest snapshot, the facts that never change (organization,
 * createdAt), deletions, and the writes through the proxy that may have changed them since. Bounded.
 */
export class UserBook {
  private readonly snapshots: BoundedMap<string, Snapshot>
  /** Never changes (docs/contract.md §1): the organization of every user seen. */
  private readonly organizations: BoundedMap<string, string>
  /** Never changes (docs/contract.md §1): the first createdAt seen of each user, and when. */
  private readonly createdAt: BoundedMap<string, Snapshot>
  private readonly deletions: BoundedMap<string, Span>
  readonly writes: WriteHistory

  constructor(limit: number) {
    this.snapshots = new BoundedMap(limit)
    this.organizations = new BoundedMap(limit)
    this.createdAt = new BoundedMap(limit)
    this.deletions = new BoundedMap(limit)
    this.writes = new WriteHistory(limit)
  }

  /** Records a user as an answer showed them; a later request's answer replaces an earlier one's. */
  see(user: SeenUser, span: Span, seenAt: number): void {
    const known = this.snapshots.get(user.id)
    if (!known || known.startedAt < span.startedAt) this.snapshots.set(user.id, { user, seenAt, ...span })
    if (typeof user.organizationId === 'string') this.organizations.set(user.id, user.organizationId)
    if (typeof user.createdAt === 'string' && !this.createdAt.has(user.id))
      this.createdAt.set(user.id, { user, seenAt, ...span })
  }

  /** The latest answer that showed the user, as sureSnapshot reads it. */
  latest(id: string): Snapshot | undefined {
    return this.snapshots.get(id)
  }

  recordDeletion(id: string, span: Span): void {
    this.deletions.set(id, span)
  }

  deletionOf(id: string): Span | undefined {
    return this.deletions.get(id)
  }

  organizationOf(id: string): string | undefined {
    return this.organizations.get(id)
  }

  /** The first answer that showed the user's createdAt. */
  firstCreatedAt(id: string): Snapshot | undefined {
    return this.createdAt.get(id)
  }

  /**
   * The user as they were when `span` began, if the proxy is sure of it: the latest snapshot ended
   * before, and no write through the proxy (but those started at `except`) may have changed them since.
   */
  sureSnapshot(id: string, span: Span, except: readonly number[] = []): SeenUser | undefined {
    const snapshot = this.snapshots.get(id)
    if (!snapshot || snapshot.endedAt >= span.startedAt) return undefined
    const exceptions = [snapshot.startedAt, ...except]
    if (this.writes.changedBetween(id, snapshot.startedAt, span.endedAt, exceptions)) return undefined
    return snapshot.user
  }
}
