import type { DeliveryScheduler, ScheduledQueue } from './delivery-scheduler.js'
import type { DeliverySender } from './delivery-sender.js'
import type { DeliverySettings } from './delivery-settings.js'
import type { DeliveryRecord, EventLog, LoggedEvent } from './event-log.js'
import type { WebhookEndpoint } from './webhook-endpoints.js'

/** How long a delivery in flight counts against the mock's limit of deliveries in flight (delivery-scheduler.ts). */
const SLOW_DELIVERY_MS = 1_000

interface Delivery {
  event: LoggedEvent
  body: string
  record: DeliveryRecord
  /** queued: may start; sending: in flight; waiting: a retry is due later. */
  state: 'queued' | 'sending' | 'waiting'
  timer?: ReturnType<typeof setTimeout>
}

/**
 * One endpoint's deliveries: at most `concurrency` in flight, at most `queueLimit` waiting, and the
 * events of one user strictly in order (CONTRACT §6): a user's next event waits until the previous one
 * was delivered or given up, retries included. A receiver that hangs or refuses costs timers and a
 * bounded queue, nothing more. When a delivery starts is the scheduler's to say (delivery-scheduler.ts):
 * the queue tells it when one may.
 *
 * Each user's deliveries wait in a line of their own, and the users whose first delivery may go now are
 * kept apart: finding the next takes the same time however full the queue. (It was a scan of the whole
 * queue, which with 1,000 deliveries of one user waiting behind the one in flight cost ~10 µs each time
 * the scheduler asked, many endpoints a turn under npm run bench:webhooks's saturated load.)
 */
export class EndpointQueue implements ScheduledQueue {
  /** Each user's deliveries not ended yet, the first one queued, in flight or waiting for a retry. */
  private readonly lines = new Map<string, Delivery[]>()
  /** The users whose first delivery is queued, in the order they became so. */
  private readonly startable = new Set<string>()
  private pending = 0
  private readonly closed = new AbortController()
  private active = 0
  private onIdle: Array<() => void> = []

  constructor(
    readonly endpoint: WebhookEndpoint,
    private readonly settings: DeliverySettings,
    private readonly log: EventLog,
    private readonly send: DeliverySender,
    private readonly sign: Signer,
    private readonly scheduler: DeliveryScheduler,
  ) {}

  enqueue(event: LoggedEvent, body: string): void {
    const record: DeliveryRecord = {
      endpointId: this.endpoint.id,
      url: this.endpoint.url,
      state: 'pending',
      attempts: [],
    }
    event.deliveries.push(record)
    if (this.closed.signal.aborted) return this.drop(event, record, 'the endpoint was removed')
    if (this.pending >= this.settings.queueLimit) {
      return this.drop(event, record, `the endpoint's queue was full (${this.settings.queueLimit} deliveries waiting)`)
    }
    const line = this.lines.get(event.userId)
    const delivery: Delivery = { event, body, record, state: 'queued' }
    if (line === undefined) {
      this.lines.set(event.userId, [delivery])
      this.startable.add(event.userId)
    } else line.push(delivery)
    this.pending += 1
    this.log.updated(event, record)
    this.scheduler.wake(this)
  }

  get size(): number {
    return this.pending
  }

  /** Resolves once nothing is queued, in flight or waiting for a retry. */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve()
    return new Promise((resolve) => this.onIdle.push(resolve))
  }

  /** Stops: timers cleared, requests in flight aborted, what was pending dropped. */
  close(reason: string): void {
    this.closed.abort()
    const lines = [...this.lines.values()]
    this.lines.clear()
    this.startable.clear()
    this.pending = 0
    for (const delivery of lines.flat()) {
      if (delivery.timer !== undefined) clearTimeout(delivery.timer)
      this.drop(delivery.event, delivery.record, reason)
    }
    this.settle()
  }

  /** The first delivery of the user who has waited longest with nothing before it pending, started (ScheduledQueue). */
  startNext(): boolean {
    if (this.active >= this.settings.concurrency || this.closed.signal.aborted) return false
    for (const user of this.startable) {
      this.startable.delete(user)
      const delivery = this.lines.get(user)?.[0]
      if (delivery?.state !== 'queued') continue
      delivery.state = 'sending'
      this.active++
      void this.attempt(delivery)
      return true
    }
    return false
  }

  private async attempt(delivery: Delivery): Promise<void> {
    const { event, body, record } = delivery
    const started = Date.now()
    const timestamp = new Date(started)
    let status: number | undefined
    let error: string | undefined
    const seconds = Math.floor(started / 1000)
    // One controller an attempt, its timer and its link to `closed` removed after: AbortSignal.any on a
    // long-lived signal keeps every attempt's signal reachable for as long as the queue lives.
    const attempt = new AbortController()
    const timer = setTimeout(
      () => attempt.abort(new DOMException('timed out', 'TimeoutError')),
      this.settings.attemptTimeoutMs,
    )
    const onClose = (): void => attempt.abort()
    this.closed.signal.addEventListener('abort', onClose)
    // A receiver slower than this gives its place back: receivers that hang cannot hold up the others.
    let counted = true
    const slow = setTimeout(() => {
      counted = false
      this.scheduler.done()
    }, SLOW_DELIVERY_MS)
    let sent = false
    try {
      const signature = await this.sign(this.endpoint.secret, event.id, seconds, body)
      // A redirect is not a delivery: a receiver that moved says so with a 3xx, logged as such.
      const answer = this.send(this.endpoint.url, {
        headers: {
          'content-type': 'application/json',
          'user-agent': 'users-api-kit-mock',
          'webhook-id': event.id,
          'webhook-timestamp': String(seconds),
          'webhook-signature': signature,
        },
        body,
        signal: attempt.signal,
      })
      // The next delivery may start on a later turn: the first signature waits for the library, and the
      // deliveries started meanwhile would otherwise all go out in the turn it came.
      sent = true
      this.scheduler.sent()
      status = await answer
    } catch (cause) {
      error = describeFailure(attempt.signal.reason ?? cause, this.settings.attemptTimeoutMs)
    } finally {
      clearTimeout(timer)
      clearTimeout(slow)
      this.closed.signal.removeEventListener('abort', onClose)
    }
    if (!sent) this.scheduler.sent()
    this.active--
    if (counted) this.scheduler.done()
    if (this.closed.signal.aborted) return
    record.attempts.push({
      at: timestamp.toISOString(),
      durationMs: Date.now() - started,
      ...(status === undefined ? {} : { status }),
      ...(error === undefined ? {} : { error }),
    })
    const delivered = status !== undefined && status >= 200 && status < 300
    const retries = this.settings.retryDelaysMs
    const retry = record.attempts.length - 1
    if (delivered) this.finish(delivery, 'delivered')
    else if (retry >= retries.length)
      this.finish(delivery, 'failed', `no 2xx answer after ${record.attempts.length} attempts`)
    else {
      delivery.state = 'waiting'
      delivery.timer = setTimeout(() => {
        delivery.state = 'queued'
        delivery.timer = undefined
        this.startable.add(event.userId)
        this.scheduler.wake(this)
      }, retries[retry])
      // In Node, a retry due later never keeps the process alive on its own.
      ;(delivery.timer as { unref?: () => void }).unref?.()
      this.log.updated(event, record)
    }
    // A place is free, and the user's next event may go.
    this.scheduler.wake(this)
  }

  private finish(delivery: Delivery, state: 'delivered' | 'failed', note?: string): void {
    // The first of its user's line: the user's next delivery may go.
    const user = delivery.event.userId
    const line = this.lines.get(user) as Delivery[]
    line.shift()
    if (line.length === 0) this.lines.delete(user)
    else this.startable.add(user)
    this.pending -= 1
    delivery.record.state = state
    if (note !== undefined) delivery.record.note = note
    this.log.updated(delivery.event, delivery.record)
    this.settle()
  }

  private drop(event: LoggedEvent, record: DeliveryRecord, note: string): void {
    record.state = 'dropped'
    record.note = note
    this.log.updated(event, record)
  }

  private settle(): void {
    if (this.pending > 0) return
    for (const resolve of this.onIdle.splice(0)) resolve()
  }
}

/** A Standard Webhooks signature of one delivery: (secret, webhook-id, Unix seconds, body). */
export type Signer = (secret: string, id: string, seconds: number, body: string) => Promise<string>

/** fetch's errors carry the cause (ECONNREFUSED) beneath; node:http's carry their code themselves. */
function describeFailure(cause: unknown, timeoutMs: number): string {
  const error = cause as {
    name?: string
    code?: string
    message?: string
    cause?: { code?: string; message?: string }
  }
  if (error.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`
  return error.cause?.code ?? error.cause?.message ?? error.code ?? error.message ?? String(cause)
}
