import type { Ranks } from './member-index-rank-list.js'

/**
 * A set of ranks as a bitmap, one bit a rank: for a posting list that many users are on. A list of
 * more than one rank in 32 is smaller this way than as a RankList; 100,000 users share ~370 such n-grams
 * (their email's domain, common letters), 24 of the index's 33 MiB as Int32Arrays, 4.5 as bitmaps.
 *
 * @example
 * const ranks = RankBits.ofCapacity(100)
 * ranks.add(7); ranks.add(3)
 * [...ranks.view()] // [3, 7]
 */
export class RankBits implements Ranks {
  #words: Uint32Array
  #length = 0

  private constructor(words: Uint32Array) {
    this.#words = words
  }

  /** An empty set with room for ranks 0 to capacity - 1 (it grows past them when it must). */
  static ofCapacity(capacity: number): RankBits {
    return new RankBits(new Uint32Array(Math.ceil(capacity / 32)))
  }

  /** Whether `length` ranks out of `capacity` take less room here than in a RankList. */
  static suits(length: number, capacity: number): boolean {
    return length * 32 > capacity
  }

  get length(): number {
    return this.#length
  }

  /**
   * The ranks in ascending order, in a new array: built on each call (a RankList hands out a view of its
   * storage), so a caller reads it once per query.
   */
  view(): Int32Array {
    const words = this.#words
    const ranks = new Int32Array(this.#length)
    let position = 0
    for (let index = 0; index < words.length; index++) {
      let word = words[index]! | 0
      // The rank of a word's lowest set bit is its base minus the zeros above that bit.
      const base = index * 32 + 31
      while (word !== 0) {
        const lowest = word & -word
        ranks[position++] = base - Math.clz32(lowest)
        word ^= lowest
      }
    }
    return ranks
  }

  /** Inserts a rank, unless it is already there. */
  add(rank: number): void {
    this.reserve(rank + 1)
    const index = rank >>> 5
    const bit = 1 << (rank & 31)
    const word = this.#words[index]!
    if ((word & bit) !== 0) return
    this.#words[index] = word | bit
    this.#length++
  }

  /** Removes a rank; false when it is not there. */
  delete(rank: number): boolean {
    const index = rank >>> 5
    const bit = 1 << (rank & 31)
    const word = this.#words[index]
    if (word === undefined || (word & bit) === 0) return false
    this.#words[index] = word & ~bit
    this.#length--
    return true
  }

  /** Adds one to every rank from `rank` on: a user was inserted before them. */
  shiftFrom(rank: number): void {
    const words = this.#words
    const first = rank >>> 5
    if (first >= words.length) return
    // The highest bit moves into a word past the last: room for it first.
    if (words[words.length - 1]! >>> 31 !== 0) this.reserve(words.length * 32 + 1)
    const shifted = this.#words
    // From the top down, each word takes the bit its lower neighbour loses, before that one is shifted.
    for (let index = shifted.length - 1; index > first; index--) {
      shifted[index] = (shifted[index]! << 1) | (shifted[index - 1]! >>> 31)
    }
    const kept = (1 << (rank & 31)) - 1
    const word = shifted[first]!
    shifted[first] = (word & kept) | ((word & ~kept) << 1)
  }

  private reserve(capacity: number): void {
    const needed = Math.ceil(capacity / 32)
    if (needed <= this.#words.length) return
    // Grow by an eighth, as RankList does: a bitmap is already a fraction of the list it replaces.
    const grown = new Uint32Array(needed + (needed >> 3) + 1)
    grown.set(this.#words)
    this.#words = grown
  }
}
