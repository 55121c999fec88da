import { GramTable } from './member-index-gram-table.js'
import { RankBits } from './member-index-rank-bits.js'
import { RankList, type Ranks } from './member-index-rank-list.js'

/** Keys pack a gram's code units into one number, exactly: 3 × 16 bits plus 2 bits of length. */
export const MAX_NGRAM_LENGTH = 3

/**
 * The key of the gram `text.slice(start, start + length)`: its UTF-16 code units in base 65536,
 * then its length. A number hashes and compares faster than a fresh string, and allocates less.
 *
 * @example
 * ngramKey('ab', 0, 2) === ngramKey('xab', 1, 2) // true
 */
function ngramKey(text: string, start: number, length: number): number {
  let key = 0
  for (let offset = 0; offset < length; offset++) key = key * 65536 + text.charCodeAt(start + offset)
  return key * 4 + length
}

/**
 * Writes the key of every n-gram (substring of 1 to `maxLength` UTF-16 code units) of `text`,
 * repeats included, into `keys` from `position` on; returns the position after the last. `keys`
 * must have room for `text.length * maxLength` of them.
 *
 * @example
 * writeNgramKeys('abc', 2, keys, 0) // 5: the keys of 'a', 'ab', 'b', 'bc', 'c'
 */
function writeNgramKeys(text: string, maxLength: number, keys: Float64Array, position: number): number {
  let next = position
  for (let start = 0; start < text.length; start++) {
    let code = 0
    const end = Math.min(start + maxLength, text.length)
    for (let offset = start; offset < end; offset++) {
      code = code * 65536 + text.charCodeAt(offset)
      keys[next++] = code * 4 + offset - start + 1
    }
  }
  return next
}

/**
 * The key of every n-gram of each text, repeats included. Texts are cut separately so that no
 * gram spans two of them: a name ending in "ab" and an email starting with "cd" must not match "bc".
 *
 * @example
 * listNgramKeys(['abc'], 2) // the keys of 'a', 'ab', 'b', 'bc', 'c'
 */
export function listNgramKeys(texts: readonly string[], maxLength: number): Float64Array {
  const keys = new Float64Array(texts.reduce((sum, text) => sum + text.length, 0) * maxLength)
  let length = 0
  for (const text of texts) length = writeNgramKeys(text, maxLength, keys, length)
  return keys.subarray(0, length)
}

/** A text of the user at a rank: each is cut into grams separately (see listNgramKeys). */
export type TextAt = (rank: number) => string

/**
 * An inverted index from n-gram (by key) to the ranks of the users whose texts contain it. The
 * posting list of a search term no longer than the longest gram is exactly the set of its matches.
 *
 * @example
 * const index = new NgramIndex()
 * index.add(listNgramKeys(['ada lovelace', 'ada@example.com'], 3), 0)
 * index.postings('lov')?.view() // Int32Array [0]
 */
export class NgramIndex {
  readonly #postings = new Map<number, Ranks>()

  /**
   * The index of `count` users, ranks 0 to count - 1, each with the texts `textsAt` give. Two
   * passes over the grams: count each gram's users, then write their ranks into Int32Arrays of
   * exactly that size. Gathering ranks in growing arrays instead raised the peak RSS by 170 MiB
   * for 100,000 users (now 50), and V8 kept those pages after the garbage was gone (docs/decisions/0004).
   *
   * @example
   * NgramIndex.build(names.length, 3, [(rank) => names[rank]!, (rank) => emails[rank]!])
   */
  static build(count: number, maxLength: number, textsAt: readonly TextAt[]): NgramIndex {
    const grams = new GramTable()
    const scratch = new KeyScratch(maxLength, textsAt)
    for (let rank = 0; rank < count; rank++) {
      const length = scratch.fill(rank)
      for (let position = 0; position < length; position++) grams.countUser(scratch.keys[position]!, rank)
    }
    // One array per gram, not views into a shared one: a list that outgrows its array frees it. A gram most
    // users have is a bitmap instead (RankBits), and its array stays empty.
    const bitmaps = new Array<RankBits | undefined>(grams.size)
    const lists = Array.from({ length: grams.size }, (_, id) => {
      const length = grams.userCount(id)
      if (!RankBits.suits(length, count)) return new Int32Array(length)
      bitmaps[id] = RankBits.ofCapacity(count)
      return EMPTY
    })
    const filled = new Int32Array(grams.size)
    grams.forgetRanks()
    for (let rank = 0; rank < count; rank++) {
      const length = scratch.fill(rank)
      for (let position = 0; position < length; position++) {
        const id = grams.placeUser(scratch.keys[position]!, rank)
        if (id < 0) continue
        const bitmap = bitmaps[id]
        if (bitmap === undefined) lists[id]![filled[id]!++] = rank
        else bitmap.add(rank)
      }
    }
    const index = new NgramIndex()
    for (const [id, ranks] of lists.entries()) {
      index.#postings.set(grams.keyOf(id), bitmaps[id] ?? RankList.over(ranks))
    }
    return index
  }

  /** Files a rank under each gram; repeated grams are harmless. */
  add(keys: Iterable<number>, rank: number): void {
    for (const key of keys) {
      let ranks = this.#postings.get(key)
      if (ranks === undefined) this.#postings.set(key, (ranks = new RankList()))
      ranks.add(rank)
    }
  }

  remove(keys: Iterable<number>, rank: number): void {
    for (const key of keys) {
      const ranks = this.#postings.get(key)
      // Renames and deletions must not leave empty lists behind.
      if (ranks?.delete(rank) && ranks.length === 0) this.#postings.delete(key)
    }
  }

  /** The ranks of the users containing `gram`; undefined for none, or a gram longer than indexed. */
  postings(gram: string): Ranks | undefined {
    // Past MAX_NGRAM_LENGTH a key would lose precision and could name another gram.
    if (gram.length > MAX_NGRAM_LENGTH) return undefined
    return this.#postings.get(ngramKey(gram, 0, gram.length))
  }

  /** Every posting list, to renumber ranks. */
  lists(): IterableIterator<Ranks> {
    return this.#postings.values()
  }
}

const EMPTY = new Int32Array(0)

/** The gram keys of one user's texts (see listNgramKeys), in one array reused for every user. */
class KeyScratch {
  keys = new Float64Array(256)

  constructor(
    private readonly maxLength: number,
    private readonly textsAt: readonly TextAt[],
  ) {}

  /** Writes the keys of the user at `rank` from position 0; returns how many there are. */
  fill(rank: number): number {
    let length = 0
    for (const textAt of this.textsAt) {
      const text = textAt(rank)
      this.reserve(length + text.length * this.maxLength)
      length = writeNgramKeys(text, this.maxLength, this.keys, length)
    }
    return length
  }

  private reserve(capacity: number): void {
    if (capacity <= this.keys.length) return
    const keys = new Float64Array(capacity * 2)
    keys.set(this.keys)
    this.keys = keys
  }
}
