import type { FindingEntry } from './finding-entry.js'

/** What the proxy has seen so far, in numbers. */
export interface ProxyCounts {
  /** Every exchange forwarded. */
  exchanges: number
  /** Those of the users API (under /api, but OPTIONS): the ones judged. */
  judged: number
  violations: number
  client: number
  unchecked: number
  /** Per check: its kind and rule, and how many findings. */
  checks: Record<string, { kind: FindingEntry['kind']; rule: string; sentences: readonly string[]; count: number }>
}

export type FindingListener = (entry: FindingEntry, counts: ProxyCounts) => void

/**
 * The findings of a proxy's run: the last `keep` of them and the counts of all. Bounded whatever the
 * run's length: the counts hold one entry per check, of which there are a few dozen.
 */
export class FindingLog {
  private readonly entries: FindingEntry[] = []
  private readonly listeners = new Set<FindingListener>()
  private nextId = 1
  readonly counts: ProxyCounts = { exchanges: 0, judged: 0, violations: 0, client: 0, unchecked: 0, checks: {} }

  constructor(readonly keep = 200) {}

  /** The id the next entry gets. */
  claimId(): number {
    return this.nextId++
  }

  add(entry: FindingEntry): void {
    this.entries.push(entry)
    if (this.entries.length > this.keep) this.entries.shift()
    const counter = entry.kind === 'violation' ? 'violations' : entry.kind
    this.counts[counter] += 1
    const check = (this.counts.checks[entry.check] ??= { kind: entry.kind, rule: entry.rule, sentences: [], count: 0 })
    check.count += 1
    check.sentences = [...new Set([...check.sentences, ...entry.sentences])]
    for (const listener of this.listeners) listener(entry, this.counts)
  }

  recordExchange(judged: boolean): void {
    this.counts.exchanges += 1
    if (judged) this.counts.judged += 1
  }

  /** The last entries, oldest first. */
  recent(): FindingEntry[] {
    return [...this.entries]
  }

  subscribe(listener: FindingListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}
