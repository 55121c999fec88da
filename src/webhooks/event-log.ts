import type { UserEvent } from '../domain/user-events.js'

/** One attempt to deliver an event to an endpoint: the answer's status, or why there was none. */
export interface DeliveryAttempt {
  at: string
  durationMs: number
  status?: number
  error?: string
}

export interface DeliveryRecord {
  endpointId: string
  url: string
  /** `pending` while queued or waiting for a retry; `dropped` when the endpoint's queue was full or it was removed. */
  state: 'pending' | 'delivered' | 'failed' | 'dropped'
  attempts: DeliveryAttempt[]
  /** Why it was dropped or failed, in words. */
  note?: string
}

/** An event as GET /__mock/events shows it: its `webhook-id`, its payload and every delivery. */
export interface LoggedEvent {
  id: string
  type: UserEvent['type']
  organizationId: string
  userId: string
  payload: UserEvent
  deliveries: DeliveryRecord[]
}

export type EventLogUpdate =
  | { kind: 'event'; event: LoggedEvent }
  | { kind: 'delivery'; eventId: string; delivery: DeliveryRecord }
  | { kind: 'cleared' }

export type EventLogWatcher = (update: EventLogUpdate) => void

/** The recent events kept for GET /__mock/events: enough to debug a screen, bounded in memory. */
const EVENT_LOG_SIZE = 200

/** The recent events with their deliveries, and whoever watches them live (the SSE stream). */
export class EventLog {
  private readonly events: LoggedEvent[] = []
  private readonly watchers = new Set<EventLogWatcher>()

  constructor(private readonly size = EVENT_LOG_SIZE) {}

  add(event: LoggedEvent): void {
    this.events.push(event)
    if (this.events.length > this.size) this.events.shift()
    this.notify({ kind: 'event', event })
  }

  /** A delivery of an event changed (an attempt, its outcome). */
  updated(event: LoggedEvent, delivery: DeliveryRecord): void {
    this.notify({ kind: 'delivery', eventId: event.id, delivery })
  }

  recent(): LoggedEvent[] {
    return [...this.events]
  }

  clear(): void {
    this.events.length = 0
    this.notify({ kind: 'cleared' })
  }

  /** Calls `watcher` on every update until the returned function is called. */
  watch(watcher: EventLogWatcher): () => void {
    this.watchers.add(watcher)
    return () => this.watchers.delete(watcher)
  }

  private notify(update: EventLogUpdate): void {
    for (const watcher of this.watchers) {
      try {
        watcher(update)
      } catch {
        // A watcher's failure (a closed stream) is its own; the log and the other watchers go on.
      }
    }
  }
}
