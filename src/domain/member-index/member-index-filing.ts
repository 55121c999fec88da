import type { Member } from './member-index-changes.js'
import { compareInListOrder, findListPosition, isBeforeInListOrder } from './member-index-order.js'
import { RankList, type Ranks } from './member-index-rank-list.js'
import { NgramIndex, listNgramKeys } from './ngram-index.js'
import { ROLES, type Role, type User } from '../user.js'

/**
 * The index proper: every filed user has a rank, their position in list order, and every list
 * (everyone, each role, each n-gram) is a set of ranks (a RankList; RankBits for an n-gram more
 * than one user in 32 has). A user keeps their rank for as long as they are filed, renames and role
 * changes included; a deleted user's rank stays taken (with their user, for ordering) until the next
 * rebuild, so a deletion moves nobody else.
 *
 * @example
 * const filing = MemberFiling.build(members, 3)
 * filing.withGram('ab')?.view().map((rank) => filing.memberAt(rank)) // who contains 'ab'
 */
export class MemberFiling {
  /** By rank, deleted users included: what binary searches for a new user's place read. */
  readonly #users: User[]
  /** By rank; undefined where the user was deleted. */
  readonly #members: Array<Member | undefined>
  #deletedCount = 0
  readonly #everyone: RankList
  readonly #byRole: Map<Role, RankList>
  readonly #ngrams: NgramIndex

  private constructor(
    private readonly maxGramLength: number,
    lists: {
      members: Member[]
      everyone: RankList
      byRole: Map<Role, RankList>
      ngrams: NgramIndex
    },
  ) {
    this.#members = lists.members
    this.#users = lists.members.map((member) => member.user)
    this.#everyone = lists.everyone
    this.#byRole = lists.byRole
    this.#ngrams = lists.ngrams
  }

  /** An index of nobody, to file users into one by one. */
  static empty(maxGramLength: number): MemberFiling {
    const byRole = new Map(ROLES.map((role) => [role, new RankList()]))
    return new MemberFiling(maxGramLength, { members: [], everyone: new RankList(), byRole, ngrams: new NgramIndex() })
  }

  /** Files everyone at once, in list order; each list is built at its exact size. */
  static build(members: Iterable<Member>, maxGramLength: number): MemberFiling {
    const sorted = Array.from(members).sort((a, b) => compareInListOrder(a.user, b.user))
    const count = sorted.length
    for (let rank = 0; rank < count; rank++) sorted[rank]!.rank = rank
    return new MemberFiling(maxGramLength, {
      members: sorted,
      everyone: RankList.where(count, () => true),
      byRole: new Map(ROLES.map((role) => [role, RankList.where(count, (rank) => sorted[rank]!.role === role)])),
      ngrams: NgramIndex.build(count, maxGramLength, [
        (rank) => sorted[rank]!.lowerName,
        (rank) => sorted[rank]!.lowerEmail,
      ]),
    })
  }

  memberAt(rank: number): Member {
    return this.#members[rank]!
  }

  get everyone(): RankList {
    return this.#everyone
  }

  withRole(role: Role): RankList {
    return this.#byRole.get(role)!
  }

  withGram(gram: string): Ranks | undefined {
    return this.#ngrams.postings(gram)
  }

  /** Every filed user in list order, as long as nobody was deleted since the build; else undefined. */
  get usersInListOrder(): readonly User[] | undefined {
    return this.#deletedCount === 0 ? this.#users : undefined
  }

  /** Taken ranks whose user was deleted: past a share of them, a rebuild is worth it. */
  get deletedCount(): number {
    return this.#deletedCount
  }

  get rankCount(): number {
    return this.#users.length
  }

  file(member: Member): void {
    const rank = this.placeRank(member.user)
    member.rank = rank
    this.#members[rank] = member
    this.#everyone.add(rank)
    this.withRole(member.role).add(rank)
    this.#ngrams.add(this.ngramsOf(member), rank)
  }

  unfile(member: Member): void {
    const { rank } = member
    this.#members[rank] = undefined
    this.#deletedCount++
    this.#everyone.delete(rank)
    this.withRole(member.role).delete(rank)
    this.#ngrams.remove(this.ngramsOf(member), rank)
  }

  /**
   * Moves a user from `before` to `after` (same id and createdAt: same rank), touching only the
   * lists that differ; false when no list changes and the user object is the same.
   */
  refile(before: Member, after: Member): boolean {
    const { rank } = before
    after.rank = rank
    this.#members[rank] = after
    this.#users[rank] = after.user
    if (before.role !== after.role) {
      this.withRole(before.role).delete(rank)
      this.withRole(after.role).add(rank)
    }
    if (before.lowerName === after.lowerName && before.lowerEmail === after.lowerEmail) {
      // Results hold user objects: a new object for the same user changes them, whatever list it is in.
      return before.user !== after.user || before.role !== after.role
    }
    const oldGrams = new Set(this.ngramsOf(before))
    const newGrams = new Set(this.ngramsOf(after))
    const gone = [...oldGrams].filter((key) => !newGrams.has(key))
    const added = [...newGrams].filter((key) => !oldGrams.has(key))
    this.#ngrams.remove(gone, rank)
    this.#ngrams.add(added, rank)
    return true
  }

  /** The rank for a new user: the next one, a deleted user's next to their place, or a new one there. */
  private placeRank(user: User): number {
    const last = this.#users[this.#users.length - 1]
    if (last === undefined || isBeforeInListOrder(last, user)) return this.#users.push(user) - 1
    const position = findListPosition(this.#users, user)
    // A deleted user's rank on either side of the place keeps the ranks in list order.
    for (const rank of [position, position - 1]) {
      if (rank >= 0 && this.#members[rank] === undefined) {
        this.#users[rank] = user
        this.#deletedCount--
        return rank
      }
    }
    this.insertRank(position, user)
    return position
  }

  /** Makes room at `rank` by adding one to every rank from there: a pass over every list. */
  private insertRank(rank: number, user: User): void {
    this.#users.splice(rank, 0, user)
    this.#members.splice(rank, 0, undefined)
    this.#everyone.shiftFrom(rank)
    for (const ranks of this.#byRole.values()) ranks.shiftFrom(rank)
    for (const ranks of this.#ngrams.lists()) ranks.shiftFrom(rank)
    for (let later = rank + 1; later < this.#members.length; later++) {
      const member = this.#members[later]
      if (member !== undefined) member.rank = later
    }
  }

  private ngramsOf(member: Member): Float64Array {
    return listNgramKeys([member.lowerName, member.lowerEmail], this.maxGramLength)
  }
}
