/**
 * Ends the sending to a server whose answers cannot be had: after `limit` requests in a row that timed
 * out or got an answer past --max-response-bytes (an endless body, a compression bomb), every further
 * request fails at once, saying why. Without it a server that accepts connections and never answers
 * would cost each of the suite's ~200 checks the whole timeout (over half an hour at 10 s), and one
 * that answers endlessly would have gigabytes read from it. An answer the client could read before the
 * limit starts the count again (a reset or a non-HTTP answer is quick, so it neither counts nor
 * resets); once stopped, nothing is sent, so the stop lasts for the rest of the run.
 *
 * @example
 * const guard = new SilenceGuard(3)
 * guard.recordTimeout('no response within 1000 ms (timed out)') // three times…
 * guard.reasonToStop() // 'the last 3 requests to the target got no response within 1000 ms …'
 */
export class SilenceGuard {
  private inARow = 0
  private lastReason = ''
  private lastKind: 'timeout' | 'oversized' = 'timeout'

  constructor(private readonly limit = 3) {}

  /** Why nothing more should be sent, or undefined while the target may still answer. */
  reasonToStop(): string | undefined {
    if (this.inARow < this.limit) return undefined
    const server =
      this.lastKind === 'timeout' ? 'a server that stopped answering' : 'a server whose answers are past the limits'
    return `the last ${this.inARow} requests to the target got ${this.lastReason}; the suite sends nothing more to ${server}, so that the run ends`
  }

  recordTimeout(reason: string): void {
    this.record('timeout', reason)
  }

  /** An answer past the size limit, or holding more JSON values than any answer: counted as a timeout is. */
  recordOversized(reason: string): void {
    this.record('oversized', reason)
  }

  recordAnswer(): void {
    this.inARow = 0
  }

  private record(kind: 'timeout' | 'oversized', reason: string): void {
    this.inARow += 1
    this.lastKind = kind
    this.lastReason = reason
  }
}
