/**
 * Ends the sending to a server that stopped answering: after `limit` timeouts in a row, every further
 * request fails at once, saying why. Without it a server that accepts connections and never answers
 * would cost each of the suite's ~200 checks the whole timeout (over half an hour at 10 s). An HTTP
 * answer before the limit starts the count again (a reset or a non-HTTP answer is quick, so it neither
 * counts nor resets); once stopped, nothing is sent, so the stop lasts for the rest of the run.
 *
 * @example
 * const guard = new SilenceGuard(3)
 * guard.recordTimeout('no response within 1000 ms (timed out)') // three times…
 * guard.reasonToStop() // 'the last 3 requests to the target got no response within 1000 ms …'
 */
export class SilenceGuard {
  private timeoutsInARow = 0
  private lastReason = ''

  constructor(private readonly limit = 3) {}

  /** Why nothing more should be sent, or undefined while the target may still answer. */
  reasonToStop(): string | undefined {
    if (this.timeoutsInARow < this.limit) return undefined
    return `the last ${this.timeoutsInARow} requests to the target got ${this.lastReason}; the suite sends nothing more to a server that stopped answering, so that the run ends`
  }

  recordTimeout(reason: string): void {
    this.timeoutsInARow += 1
    this.lastReason = reason
  }

  recordAnswer(): void {
    this.timeoutsInARow = 0
  }
}
