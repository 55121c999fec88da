import { Webhook } from 'standardwebhooks'
import type { Database } from '../database/database.js'

export interface DeliveryWorkerOptions {
  db: Database
  log: (line: string) => void
  /** Seconds before each retry: the first retry waits the first, and so on; then the delivery is abandoned. */
  retryDelays?: number[]
  /** An attempt that has no 2xx answer within this is a failure (docs/contract.md §6: 15 s). */
  attemptTimeoutMs?: number
  /** How often the outbox is read when nothing woke the worker (retries fall due this way). */
  pollMs?: number
}

export interface DeliveryWorker {
  /** Something was committed to the outbox: read it now rather than at the next poll. */
  wake(): void
  /** Stops claiming, aborts the attempts under way (their lease lets a later start retry them). */
  stop(): Promise<void>
}

/** 7 retries over about 90 s: growing delays (docs/contract.md §6), each under the suite's 30 s. */
const RETRY_DELAYS = [1, 2, 4, 8, 15, 25, 30]
/** How long a claimed delivery is left to its attempt before another claim may take it (a crash). */
const LEASE_SECONDS = 60
const MAX_IN_FLIGHT = 16

interface Claimed {
  id: string
  message_id: string
  payload: string
  attempts: number
  url: string
  secret: string
}

/**
 * Sends the outbox's deliveries, signed the Standard Webhooks way, at least once each: a failed attempt
 * is retried after a growing delay. The events of one user reach an endpoint in order: a delivery is
 * claimed only once every earlier one of its user and endpoint is delivered or abandoned. Several
 * instances can run at once (FOR UPDATE SKIP LOCKED).
 *
 * @example
 * const worker = startDeliveryWorker({ db, log: console.log })
 * // after a commit that wrote deliveries:
 * worker.wake()
 */
export function startDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const retryDelays = options.retryDelays ?? RETRY_DELAYS
  const attemptTimeoutMs = options.attemptTimeoutMs ?? 15_000
  const pollMs = options.pollMs ?? 500
  const inFlight = new Set<Promise<void>>()
  const aborter = new AbortController()
  let running = true
  let wakeUp: (() => void) | undefined
  let wokenMeanwhile = false

  const wake = () => {
    wokenMeanwhile = true
    wakeUp?.()
  }

  async function attempt(delivery: Claimed): Promise<void> {
    const failure = await send(delivery, attemptTimeoutMs, aborter.signal)
    if (failure === undefined) {
      await options.db.query('UPDATE webhook_deliveries SET delivered_at = now(), last_error = NULL WHERE id = $1', [
        delivery.id,
      ])
      return
    }
    if (aborter.signal.aborted) return // stopping: the lease runs out and a later start retries it
    const delay = retryDelays[delivery.attempts - 1]
    if (delay === undefined) options.log(`webhook ${delivery.message_id} to ${delivery.url} abandoned: ${failure}`)
    await options.db.query(
      `UPDATE webhook_deliveries
       SET last_error = $2,
           next_attempt_at = now() + make_interval(secs => $3),
           abandoned_at = CASE WHEN $4 THEN now() END
       WHERE id = $1`,
      [delivery.id, failure, delay ?? 0, delay === undefined],
    )
  }

  async function loop(): Promise<void> {
    while (running) {
      wokenMeanwhile = false
      const room = MAX_IN_FLIGHT - inFlight.size
      const claimed = room > 0 ? await claimDue(options.db, room).catch(reportAndClaimNothing) : []
      for (const delivery of claimed) {
        const work = attempt(delivery)
          .catch((error: unknown) => options.log(`webhook ${delivery.message_id}: ${String(error)}`))
          .finally(() => {
            inFlight.delete(work)
            wake()
          })
        inFlight.add(work)
      }
      if (claimed.length === 0 && !wokenMeanwhile && running) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pollMs)
          wakeUp = () => {
            clearTimeout(timer)
            resolve()
          }
        })
        wakeUp = undefined
      }
    }
  }

  function reportAndClaimNothing(error: unknown): Claimed[] {
    if (running) options.log(`webhook worker: reading the outbox failed: ${String(error)}`)
    return []
  }

  const looping = loop()
  return {
    wake,
    async stop() {
      running = false
      aborter.abort()
      wakeUp?.()
      await looping
      await Promise.all(inFlight)
    },
  }
}

/** Up to `limit` due deliveries, each the oldest pending one of its user and endpoint, leased to this worker. */
async function claimDue(db: Database, limit: number): Promise<Claimed[]> {
  return db.query<Claimed>(
    `WITH due AS (
       SELECT d.id FROM webhook_deliveries d
       WHERE d.delivered_at IS NULL AND d.abandoned_at IS NULL AND d.next_attempt_at <= now()
         AND NOT EXISTS (
           SELECT 1 FROM webhook_deliveries earlier
           WHERE earlier.endpoint_id = d.endpoint_id AND earlier.user_id = d.user_id AND earlier.id < d.id
             AND earlier.delivered_at IS NULL AND earlier.abandoned_at IS NULL)
       ORDER BY d.id
       LIMIT $1
       FOR UPDATE SKIP LOCKED
     )
     UPDATE webhook_deliveries AS d
     SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => $2)
     FROM due, webhook_endpoints AS e
     WHERE d.id = due.id AND e.id = d.endpoint_id
     RETURNING d.id::text AS id, d.message_id, d.payload, d.attempts, e.url, e.secret`,
    [limit, LEASE_SECONDS],
  )
}

/** One attempt: undefined when the endpoint answered 2xx in time, else what went wrong. */
async function send(delivery: Claimed, timeoutMs: number, stopping: AbortSignal): Promise<string | undefined> {
  // Signed at each attempt: webhook-timestamp is the attempt's time; webhook-id stays the event's.
  const sentAt = new Date()
  const signature = new Webhook(delivery.secret).sign(delivery.message_id, sentAt, delivery.payload)
  try {
    const response = await fetch(delivery.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': delivery.message_id,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body: delivery.payload,
      // A redirect is no delivery: following it would send the payload somewhere nobody subscribed.
      redirect: 'manual',
      signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), stopping]),
    })
    await response.body?.cancel()
    return response.status >= 200 && response.status < 300 ? undefined : `answered ${response.status}`
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  }
}
