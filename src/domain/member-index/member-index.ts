import { PendingChanges, toMember, type Member, type MemberChange } from './member-index-changes.js'
import { MemberFiling } from './member-index-filing.js'
import { QueryMemo } from './member-index-memo.js'
import type { Ranks } from './member-index-rank-list.js'
import { MAX_NGRAM_LENGTH } from './ngram-index.js'
import type { Role, User } from '../user.js'

/** The filters of GET /api/users (CONTRACT §4), without paging. */
export interface MemberFilter {
  role?: Role | undefined
  search?: string | undefined
}

export interface MemberIndexOptions {
  /** Longest n-gram indexed, 1 to 3: terms up to this length are answered without verification. */
  maxGramLength?: number
  /** How many recent query results to keep until the index changes; 0 turns the memo off. */
  memoSize?: number
}

/**
 * Past this many pending new users, filing everyone anew beats filing each: a user placed between
 * others shifts the ranks in every list. A constant, as both costs grow with the size. Changes of
 * filed users (PATCH, DELETE) never count: each keeps its rank and touches only its own lists.
 */
const REBUILD_AFTER_NEW_USERS = 256
/** Deleted users keep their rank until a rebuild; past this share of ranks, rebuild. */
const REBUILD_AFTER_DELETED_SHARE = 0.25
const REBUILD_AFTER_DELETED_MIN = 64
/** A substring check costs about as much as this many role checks: it picks which list to scan. */
const SUBSTRING_CHECK_COST = 8

/**
 * The members of ONE organization, indexed for GET /api/users (CONTRACT §4): list order is
 * (createdAt, id); `role` filters on equality; `search` is a substring of the lower-cased name or
 * email. It holds the users themselves, by identity, and never changes them: to change one, `replace`
 * it with a changed copy. Adds and removes are cheap; the index catches up at the next query, in one batch.
 *
 * @example
 * const members = new MemberIndex()
 * members.add(ada)
 * members.query({ search: 'LOVE' }) // [ada]: read-only, to read at once
 * members.replace(ada, { ...ada, name: 'Ada King' })
 */
export class MemberIndex {
  /** Everyone as of the last add or remove, by id. */
  readonly #members = new Map<string, Member>()
  readonly #pending = new PendingChanges(REBUILD_AFTER_NEW_USERS)
  readonly #maxGramLength: number
  readonly #memo: QueryMemo<readonly User[]>
  #filing: MemberFiling

  constructor({ maxGramLength = MAX_NGRAM_LENGTH, memoSize = 16 }: MemberIndexOptions = {}) {
    if (!(maxGramLength >= 1 && maxGramLength <= MAX_NGRAM_LENGTH))
      throw new RangeError(`maxGramLength must be 1 to ${MAX_NGRAM_LENGTH}.`)
    this.#maxGramLength = maxGramLength
    this.#memo = new QueryMemo(memoSize)
    this.#filing = MemberFiling.empty(maxGramLength)
  }

  /** Adds a user of this organization. Throws if their id is already in the index. */
  add(user: User): void {
    if (this.#members.has(user.id)) throw new Error(`User ${user.id} is already in the member index.`)
    const member = toMember(user)
    this.#members.set(user.id, member)
    this.#pending.recordAdd(member)
  }

  /**
   * Removes the user with this id, as they were when added: call it before mutating them.
   * Returns false when there is no such user.
   */
  remove(user: User): boolean {
    const member = this.#members.get(user.id)
    if (member === undefined) return false
    this.#members.delete(user.id)
    this.#pending.recordRemove(member)
    return true
  }

  /**
   * Puts `after`, a new object with the same id and createdAt (a rename, a role or status change), in the
   * place of `before`, and files it by its new values.
   */
  replace(before: User, after: User): void {
    this.remove(before)
    this.add(after)
  }

  /**
   * The matching users in list order. The array may be internal or shared: read `.length` and
   * `.slice()` at once, never mutate it, never keep it across an add or remove.
   */
  query({ role, search }: MemberFilter): readonly User[] {
    this.applyPendingChanges()
    // String.prototype.toLowerCase, never toLocaleLowerCase: CONTRACT §4 is locale-independent.
    const term = search === undefined ? '' : search.toLowerCase()
    if (term === '' && role === undefined) {
      const everyone = this.#filing.usersInListOrder
      if (everyone !== undefined) return everyone
    }
    return this.#memo.remember(`${role ?? ''}\u0000${term}`, () => this.select(term, role))
  }

  get size(): number {
    return this.#members.size
  }

  private select(term: string, role: Role | undefined): User[] {
    const withRole = role === undefined ? undefined : this.#filing.withRole(role)
    if (term === '') return this.collect(withRole ?? this.#filing.everyone)
    // A term no longer than a gram: its posting list is exactly its matches.
    const isExact = term.length <= this.#maxGramLength
    const candidates = isExact ? this.#filing.withGram(term) : this.rarestGramPostings(term)
    if (candidates === undefined) return []
    // A rare role (owners) is cheaper to scan with substring checks than a long posting list.
    if (withRole !== undefined && withRole.length * SUBSTRING_CHECK_COST < candidates.length) {
      return this.collect(withRole, undefined, term)
    }
    return this.collect(candidates, role, isExact ? undefined : term)
  }

  /** The users at these ranks who have the role and contain the term, when given. */
  private collect(ranks: Ranks, role?: Role, term?: string): User[] {
    const view = ranks.view()
    // Sized up front, then cut to length: several times faster than push() on long lists.
    const users = new Array<User>(view.length)
    let count = 0
    for (let position = 0; position < view.length; position++) {
      const member = this.#filing.memberAt(view[position]!)
      if (role !== undefined && member.role !== role) continue
      if (term !== undefined && !member.lowerName.includes(term) && !member.lowerEmail.includes(term)) continue
      users[count++] = member.user
    }
    users.length = count
    return users
  }

  /** The shortest posting list among the term's longest grams: every match is in it. */
  private rarestGramPostings(term: string): Ranks | undefined {
    let rarest: Ranks | undefined
    for (let start = 0; start + this.#maxGramLength <= term.length; start++) {
      const postings = this.#filing.withGram(term.slice(start, start + this.#maxGramLength))
      if (postings === undefined) return undefined
      if (rarest === undefined || postings.length < rarest.length) rarest = postings
    }
    return rarest
  }

  private applyPendingChanges(): void {
    if (this.#pending.overflowed) {
      this.#pending.clear()
      return this.rebuild()
    }
    if (this.#pending.size === 0) return
    let hasChanged = false
    for (const change of this.#pending.take()) hasChanged = this.applyChange(change) || hasChanged
    const { deletedCount, rankCount } = this.#filing
    if (deletedCount > REBUILD_AFTER_DELETED_MIN && deletedCount > rankCount * REBUILD_AFTER_DELETED_SHARE)
      return this.rebuild()
    // The memo's results hold user objects in list order: stale once a list or a user object changed.
    if (hasChanged) this.#memo.clear()
  }

  private rebuild(): void {
    this.#filing = MemberFiling.build(this.#members.values(), this.#maxGramLength)
    this.#memo.clear()
  }

  /** Applies one user's net change; false when no list and no user object changes. */
  private applyChange({ before, after }: MemberChange): boolean {
    // Same id and createdAt: same place in list order, so the user keeps their rank.
    if (before !== undefined && after?.user.createdAt === before.user.createdAt)
      return this.#filing.refile(before, after)
    if (before !== undefined) this.#filing.unfile(before)
    if (after !== undefined) this.#filing.file(after)
    return before !== undefined || after !== undefined
  }
}
