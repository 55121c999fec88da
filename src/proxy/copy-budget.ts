/**
 * How many bytes the copies of answers in flight may hold together. Each copy is bounded by
 * --max-response-bytes, but a thousand slow answers at once would each hold theirs: past the budget an
 * answer is still forwarded whole, and reported as not checked, instead of the proxy's memory growing.
 */
export class CopyBudget {
  private used = 0

  constructor(readonly limit: number) {}

  /** Takes `bytes` from the budget; false (and nothing taken) when they do not fit. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false
    this.used += bytes
    return true
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes)
  }

  get inUse(): number {
    return this.used
  }
}
