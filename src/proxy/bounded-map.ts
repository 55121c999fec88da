/**
 * A Map that keeps at most `limit` entries, forgetting the least recently written first: what the proxy
 * learns from traffic must not grow with it, however long it runs.
 *
 * @example
 * const seen = new BoundedMap<string, number>(2)
 * seen.set('a', 1).set('b', 2).set('c', 3) // 'a' is forgotten
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>()

  constructor(readonly limit: number) {}

  get(key: K): V | undefined {
    return this.entries.get(key)
  }

  has(key: K): boolean {
    return this.entries.has(key)
  }

  /** Writes the entry as the most recent one, and forgets the oldest past the limit. */
  set(key: K, value: V): this {
    this.entries.delete(key)
    this.entries.set(key, value)
    if (this.entries.size > this.limit) {
      const oldest = this.entries.keys().next()
      if (!oldest.done) this.entries.delete(oldest.value)
    }
    return this
  }

  delete(key: K): boolean {
    return this.entries.delete(key)
  }

  keys(): IterableIterator<K> {
    return this.entries.keys()
  }

  get size(): number {
    return this.entries.size
  }
}
