/**
 * The last few query results, by key, dropped all at once when the index changes. A frontend
 * typing a search sends the same query again and again (one per keystroke, per page, per refetch).
 *
 * @example
 * const memo = new QueryMemo<number[]>(2)
 * memo.remember('a', () => [1]) // computes
 * memo.remember('a', () => [2]) // [1], from the memo
 * memo.clear()
 */
export class QueryMemo<Result> {
  readonly #results = new Map<string, Result>()

  constructor(private readonly capacity: number) {}

  remember(key: string, compute: () => Result): Result {
    const known = this.#results.get(key)
    if (known !== undefined) return known
    const result = compute()
    if (this.capacity === 0) return result
    // A Map iterates in insertion order: the first key is the oldest.
    if (this.#results.size >= this.capacity) this.#results.delete(this.#results.keys().next().value!)
    this.#results.set(key, result)
    return result
  }

  clear(): void {
    this.#results.clear()
  }
}
