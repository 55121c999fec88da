import { RankList } from './member-index-rank-list.js'

/** Keys pack a gram's code units into one number, exactly: 3 × 16 bits plus 2 bits of length. */
export const MAX_NGRAM_LENGTH = 3

/**
 * The key of the gram `text.slice(start, start + length)`: its UTF-16 code units in base 65536,
 * then its length. A number hashes and compares faster than a fresh string, and allocates less.
 *
 * @example
 * ngramKey('ab', 0, 2) === ngramKey('xab', 1, 2) // true
 */
export function ngramKey(text: string, start: number, length: number): number {
  let key = 0
  for (let offset = 0; offset < length; offset++) key = key * 65536 + text.charCodeAt(start + offset)
  return key * 4 + length
}

/**
 * The key of every n-gram (substring of 1 to `maxLength` UTF-16 code units) of each text, repeats
 * included. Texts are cut separately so that no gram spans two of them: a name ending in "ab" and
 * an email starting with "cd" must not match "bc".
 *
 * @example
 * listNgramKeys(['abc'], 2) // the keys of 'a', 'ab', 'b', 'bc', 'c'
 */
export function listNgramKeys(texts: readonly string[], maxLength: number): number[] {
  const keys: number[] = []
  for (const text of texts) {
    for (let start = 0; start < text.length; start++) {
      let code = 0
      const length = Math.min(maxLength, text.length - start)
      for (let offset = 0; offset < length; offset++) {
        code = code * 65536 + text.charCodeAt(start + offset)
        keys.push(code * 4 + offset + 1)
      }
    }
  }
  return keys
}

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
  readonly #postings = new Map<number, RankList>()

  /**
   * The index of `count` users, ranks 0 to count - 1, given their gram keys. Ranks gather in plain
   * arrays first, then move to exactly sized RankLists: no slack, no trail of outgrown buffers.
   */
  static build(count: number, keysAt: (rank: number) => number[]): NgramIndex {
    const draft = new Map<number, number[]>()
    for (let rank = 0; rank < count; rank++) {
      for (const key of keysAt(rank)) {
        const ranks = draft.get(key)
        if (ranks === undefined) draft.set(key, [rank])
        else if (ranks[ranks.length - 1] !== rank) ranks.push(rank)
      }
    }
    const index = new NgramIndex()
    for (const [key, ranks] of draft) index.#postings.set(key, RankList.from(ranks))
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
  postings(gram: string): RankList | undefined {
    // Past MAX_NGRAM_LENGTH a key would lose precision and could name another gram.
    if (gram.length > MAX_NGRAM_LENGTH) return undefined
    return this.#postings.get(ngramKey(gram, 0, gram.length))
  }

  /** Every posting list, to renumber ranks. */
  lists(): IterableIterator<RankList> {
    return this.#postings.values()
  }
}
