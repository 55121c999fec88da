/** How the mock delivers its events (CONTRACT §6), each setting bounded so a bad receiver costs little. */
export interface DeliverySettings {
  /**
   * The waits before each retry; their count is the number of retries. CONTRACT §6 asks for at least 3:
   * the CLI refuses fewer (parseRetryDelays); in code any schedule is taken (a broken sender, in tests).
   */
  retryDelaysMs: number[]
  /** An attempt without a 2xx answer within this time failed (CONTRACT §6: 15 s). */
  attemptTimeoutMs: number
  /** Deliveries in flight at once, per endpoint. */
  concurrency: number
  /** Deliveries waiting, per endpoint; beyond it, new ones are dropped (and logged as such). */
  queueLimit: number
}

/**
 * A short schedule for development: a receiver restarted within a minute still gets every event, and the
 * first three retries come within a second (a refused delivery's retries are seen at once: the contract
 * suite's retry check waits for three of them beside its other checks).
 */
export const DEFAULT_DELIVERY_SETTINGS: DeliverySettings = {
  retryDelaysMs: [100, 250, 500, 1_000, 5_000, 15_000, 60_000],
  attemptTimeoutMs: 15_000,
  concurrency: 4,
  queueLimit: 1_000,
}

/**
 * `500ms,2s,1m` (a bare number is milliseconds) as milliseconds, at least three, growing, none over an
 * hour; an Error saying what is expected otherwise.
 */
export function parseRetryDelays(raw: string): number[] {
  const delays = raw.split(',').map((part) => parseDuration(part.trim()))
  const growing = delays.every((delay, index) => index === 0 || delay >= (delays[index - 1] as number))
  if (delays.some((delay) => Number.isNaN(delay)) || delays.length < 3 || !growing) {
    throw new Error(
      `--webhook-retry-delays must be at least three growing delays, comma-separated, such as 500ms,2s,8s,30s (got "${raw}"; docs/contract.md §6 asks for at least 3 retries).`,
    )
  }
  return delays
}

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000 }

function parseDuration(part: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(part)
  if (!match) return Number.NaN
  const value = Number(match[1]) * (UNITS[match[2] ?? 'ms'] as number)
  return value <= 3_600_000 ? Math.round(value) : Number.NaN
}
