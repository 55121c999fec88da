/** One write through the proxy (a PATCH, a DELETE, any method that may change a user), on the proxy's clock. */
interface Write {
  startedAt: number
  /** Undefined while it is in flight. */
  endedAt?: number
  /** A 4xx changed nothing (docs/contract.md §3, §5); anything else may have. */
  refused: boolean
}

interface KeyHistory {
  writes: Write[]
  /** The latest end of the writes of this key forgotten to stay bounded. */
  forgottenUpTo: number
}

/** Writes kept per key: a longer past only matters to snapshots older than the proxy keeps anyway. */
const KEPT = 16

/**
 * The writes that went through the proxy, by key (a user's id, or one key for all): what tells a rule
 * whether what it learned about a user may have changed since. A write in flight counts; a refused one
 * does not. Bounded: past `maxKeys` the oldest keys are forgotten, and everything learned before the
 * writes forgotten counts as possibly changed.
 */
export class WriteHistory {
  private readonly keys = new Map<string, KeyHistory>()
  /** Before this point of the proxy's clock, a write may have been forgotten: nothing is sure. */
  private horizon = 0

  constructor(private readonly maxKeys: number) {}

  begin(key: string, startedAt: number): void {
    const history = this.keys.get(key) ?? { writes: [], forgottenUpTo: 0 }
    history.writes.push({ startedAt, refused: false })
    while (history.writes.length > KEPT) {
      const dropped = history.writes.shift() as Write
      history.forgottenUpTo = Math.max(history.forgottenUpTo, dropped.endedAt ?? Infinity)
    }
    this.keys.delete(key)
    this.keys.set(key, history)
    while (this.keys.size > this.maxKeys) {
      const [oldest, forgotten] = this.keys.entries().next().value as [string, KeyHistory]
      this.keys.delete(oldest)
      const ends = forgotten.writes.map((write) => write.endedAt ?? Infinity)
      this.horizon = Math.max(this.horizon, forgotten.forgottenUpTo, ...ends)
    }
  }

  end(key: string, startedAt: number, endedAt: number, refused: boolean): void {
    const write = this.keys.get(key)?.writes.find((candidate) => candidate.startedAt === startedAt)
    if (!write) return
    write.endedAt = endedAt
    write.refused = refused
  }

  /**
   * Whether a write (other than those started at `except`) may have changed the key between `from` and
   * `to`: one that overlaps that span and was not refused, or one that is still in flight.
   */
  changedBetween(key: string, from: number, to: number, except: readonly number[] = []): boolean {
    const history = this.keys.get(key)
    if (this.horizon > from || (history?.forgottenUpTo ?? 0) > from) return true
    return (history?.writes ?? []).some(
      (write) =>
        !except.includes(write.startedAt) &&
        !write.refused &&
        write.startedAt < to &&
        (write.endedAt ?? Infinity) > from,
    )
  }
}
