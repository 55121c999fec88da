import { percentile } from './load.js'

/** What one kind of request received. */
export interface KindTally {
  kind: string
  expected: number
  /** Status → count. */
  statuses: Map<number, number>
  /** Planned as another kind, sent as this one (see PlannedRequest.fallback). */
  fallbacks: number
  /** Response times after the warm-up, in ms. */
  latencies: number[]
}

export interface UnexpectedAnswer {
  kind: string
  request: string
  status: number
  body: string
}

/** At most this many unexpected answers are kept with their body, for the report. */
const KEPT_UNEXPECTED = 5

/** Counts per request kind and status; the response times after the warm-up. */
export class SoakTally {
  readonly kinds = new Map<string, KindTally>()
  readonly unexpectedSamples: UnexpectedAnswer[] = []
  unexpected = 0

  count(
    planned: { kind: string; expected: number; method: string; path: string; fallback?: boolean },
    status: number,
    body: string,
  ): void {
    const tally = this.kindTally(planned.kind, planned.expected)
    tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1)
    if (planned.fallback) tally.fallbacks++
    if (status === planned.expected) return
    this.unexpected++
    if (this.unexpectedSamples.length < KEPT_UNEXPECTED) {
      const request = `${planned.method} ${planned.path}`
      this.unexpectedSamples.push({ kind: planned.kind, request, status, body: body.slice(0, 300) })
    }
  }

  latency(kind: string, ms: number): void {
    this.kinds.get(kind)?.latencies.push(ms)
  }

  total(): number {
    let sum = 0
    for (const tally of this.kinds.values()) for (const count of tally.statuses.values()) sum += count
    return sum
  }

  /** Nearest-rank percentiles of one kind's response times, or of every kind's, in ms. */
  percentiles(kind?: string): { p50: number; p99: number; count: number } {
    const lists =
      kind === undefined
        ? [...this.kinds.values()].map((tally) => tally.latencies)
        : [this.kinds.get(kind)?.latencies ?? []]
    const sorted = new Float64Array(lists.reduce((sum, list) => sum + list.length, 0))
    let offset = 0
    for (const list of lists) {
      sorted.set(list, offset)
      offset += list.length
    }
    sorted.sort()
    return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), count: sorted.length }
  }

  private kindTally(kind: string, expected: number): KindTally {
    let tally = this.kinds.get(kind)
    if (!tally) {
      tally = { kind, expected, statuses: new Map(), fallbacks: 0, latencies: [] }
      this.kinds.set(kind, tally)
    }
    return tally
  }
}
