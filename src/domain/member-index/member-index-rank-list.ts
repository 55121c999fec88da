/** A set of ranks (positions in list order, see MemberIndex), however it is stored. */
export interface Ranks {
  readonly length: number
  /** The ranks in ascending order, to read before the next change. */
  view(): Int32Array
  /** Inserts a rank, unless it is already there. */
  add(rank: number): void
  /** Removes a rank; false when it is not there. */
  delete(rank: number): boolean
  /** Adds one to every rank from `rank` on: a user was inserted before them. */
  shiftFrom(rank: number): void
}

/**
 * A sorted set of ranks (a user's position in list order, see MemberIndex) in an Int32Array.
 * Moving ints is a plain memory copy, where splicing an array of objects pays V8's write
 * barrier on every slot it moves: about 50 times slower on a list of 100,000 users.
 *
 * @example
 * const ranks = new RankList()
 * ranks.add(7); ranks.add(3); ranks.add(7) // already there: no change
 * [...ranks.view()] // [3, 7]
 */
export class RankList implements Ranks {
  #ranks: Int32Array = new Int32Array(4)
  #length = 0

  /** A list over these ranks, which must be ascending and distinct: it takes the array as its own. */
  static over(ranks: Int32Array): RankList {
    const list = new RankList()
    list.#ranks = ranks
    list.#length = ranks.length
    return list
  }

  /**
   * The ranks from 0 to count - 1 that `keep` accepts, in an array of exactly their number.
   *
   * @example
   * RankList.where(5, (rank) => rank % 2 === 0).view() // Int32Array [0, 2, 4]
   */
  static where(count: number, keep: (rank: number) => boolean): RankList {
    let length = 0
    for (let rank = 0; rank < count; rank++) if (keep(rank)) length++
    const ranks = new Int32Array(length)
    let position = 0
    for (let rank = 0; rank < count; rank++) if (keep(rank)) ranks[position++] = rank
    return RankList.over(ranks)
  }

  get length(): number {
    return this.#length
  }

  /** The ranks in ascending order: a view of the storage, to read before the next change. */
  view(): Int32Array {
    return this.#ranks.subarray(0, this.#length)
  }

  /** Inserts a rank, unless it is already there. */
  add(rank: number): void {
    const length = this.#length
    const last = length === 0 ? -1 : this.#ranks[length - 1]!
    // Filing users in list order only ever appends, or repeats the last rank (a repeated gram).
    if (last === rank) return
    if (last > rank) return this.insert(rank)
    this.reserve(length + 1)
    this.#ranks[length] = rank
    this.#length = length + 1
  }

  /** Removes a rank; false when it is not there. */
  delete(rank: number): boolean {
    const position = this.findPosition(rank)
    if (position === this.#length || this.#ranks[position] !== rank) return false
    this.#ranks.copyWithin(position, position + 1, this.#length)
    this.#length--
    return true
  }

  /** Adds one to every rank from `rank` on: a user was inserted before them. */
  shiftFrom(rank: number): void {
    for (let position = this.findPosition(rank); position < this.#length; position++) this.#ranks[position]!++
  }

  private insert(rank: number): void {
    const position = this.findPosition(rank)
    if (this.#ranks[position] === rank) return
    this.reserve(this.#length + 1)
    this.#ranks.copyWithin(position + 1, position, this.#length)
    this.#ranks[position] = rank
    this.#length++
  }

  /** The first position whose rank is not below `rank`. */
  private findPosition(rank: number): number {
    let low = 0
    let high = this.#length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (this.#ranks[middle]! < rank) low = middle + 1
      else high = middle
    }
    return low
  }

  private reserve(capacity: number): void {
    if (capacity <= this.#ranks.length) return
    // Grow by an eighth, not double: 100,000 users fill 7 million slots, and slack is memory.
    const grown = new Int32Array(capacity + (capacity >> 3) + 4)
    grown.set(this.#ranks.subarray(0, this.#length))
    this.#ranks = grown
  }
}
