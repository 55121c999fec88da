import type { UserEvent } from '../domain/user-events.js'
import { DEFAULT_DELIVERY_SETTINGS, type DeliverySettings } from './delivery-settings.js'
import { EndpointQueue } from './endpoint-queue.js'
import { EventLog, type EventLogWatcher, type LoggedEvent } from './event-log.js'
import { AppError } from '../errors.js'
import {
  createEndpoint,
  MAX_ENDPOINTS,
  randomHex,
  receives,
  type EndpointRequest,
  type WebhookEndpoint,
} from './webhook-endpoints.js'
import { checkWebhookSecret, generateWebhookSecret } from './webhook-secret.js'

export interface WebhookOptions extends Partial<DeliverySettings> {
  /** Subscribed from the start (the CLI's --webhook). */
  endpoints?: EndpointRequest[]
  /** The secret of endpoints subscribed without one of their own (default: generated at start). */
  secret?: string
  /** Called in-process with every event, after the change (MSW and test users need no HTTP receiver). */
  onEvent?: (event: LoggedEvent) => void
}

/** The mock's events (CONTRACT §6): subscriptions, deliveries and the recent events with their attempts. */
export interface MockWebhooks {
  /** The secret of endpoints subscribed without one of their own. */
  readonly secret: string
  subscribe(request: EndpointRequest): WebhookEndpoint
  /** Whether there was such an endpoint; its pending deliveries are dropped. */
  unsubscribe(id: string): boolean
  /** Removes every endpoint (or one organization's); says how many. */
  unsubscribeAll(organizationId?: string): number
  endpoints(): WebhookEndpoint[]
  /** The recent events, oldest first, each with its deliveries. */
  events(): LoggedEvent[]
  /** Calls `listener` with every new event until the returned function is called. */
  onEvent(listener: (event: LoggedEvent) => void): () => void
  /** Calls `watcher` with every change of the event log (the SSE stream). */
  watch(watcher: EventLogWatcher): () => void
  /** Forgets the recent events and drops the deliveries still pending (what `reset` does). */
  clear(): void
  /** Resolves once no delivery is queued, in flight or waiting for a retry. */
  idle(): Promise<void>
  /** Stops every delivery (the server is closing). */
  close(): void
  /** What the domain calls: publishes one event. */
  publish(event: UserEvent): void
}

/**
 * @example
 * const webhooks = createMockWebhooks({ endpoints: [{ url: 'http://127.0.0.1:3000/hooks' }] })
 * const store = new UserStore(state, undefined, (event) => webhooks.publish(event))
 */
export function createMockWebhooks(options: WebhookOptions = {}): MockWebhooks {
  const settings: DeliverySettings = {
    retryDelaysMs: options.retryDelaysMs ?? DEFAULT_DELIVERY_SETTINGS.retryDelaysMs,
    attemptTimeoutMs: options.attemptTimeoutMs ?? DEFAULT_DELIVERY_SETTINGS.attemptTimeoutMs,
    concurrency: options.concurrency ?? DEFAULT_DELIVERY_SETTINGS.concurrency,
    queueLimit: options.queueLimit ?? DEFAULT_DELIVERY_SETTINGS.queueLimit,
  }
  const secret = options.secret === undefined ? generateWebhookSecret() : checkWebhookSecret(options.secret)
  // Looked up at each delivery: a test (or MSW) that replaces the global fetch is used.
  const send: typeof fetch = (input, init) => fetch(input, init)
  // The subscribed endpoints, each with its deliveries, in the order they were added.
  const queues = new Map<string, EndpointQueue>()
  const log = new EventLog()
  const listeners = new Set<(event: LoggedEvent) => void>()
  if (options.onEvent) listeners.add(options.onEvent)

  const subscribe = (request: EndpointRequest): WebhookEndpoint => {
    if (queues.size >= MAX_ENDPOINTS) {
      throw new AppError(
        'VALIDATION_FAILED',
        `The mock takes at most ${MAX_ENDPOINTS} webhook endpoints: remove one first.`,
      )
    }
    const endpoint = createEndpoint(request, secret)
    queues.set(endpoint.id, new EndpointQueue(endpoint, settings, log, send))
    return endpoint
  }
  const unsubscribe = (id: string): boolean => {
    queues.get(id)?.close('the endpoint was removed')
    return queues.delete(id)
  }
  for (const request of options.endpoints ?? []) subscribe(request)

  const endpoints = (): WebhookEndpoint[] => [...queues.values()].map((queue) => queue.endpoint)

  return {
    secret,
    subscribe,
    unsubscribe,
    unsubscribeAll(organizationId) {
      const ids = endpoints()
        .filter((endpoint) => organizationId === undefined || endpoint.organizationId === organizationId)
        .map((endpoint) => endpoint.id)
      for (const id of ids) unsubscribe(id)
      return ids.length
    },
    endpoints,
    events: () => log.recent(),
    onEvent(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    watch: (watcher) => log.watch(watcher),
    clear() {
      for (const [id, queue] of queues) {
        queue.close('the mock was reset')
        queues.set(id, new EndpointQueue(queue.endpoint, settings, log, send))
      }
      log.clear()
    },
    idle: async () => {
      // Events published before this call are queued on a later turn (publish): let them be.
      await new Promise((resolve) => setTimeout(resolve, 0))
      await Promise.all([...queues.values()].map((queue) => queue.idle()))
    },
    close() {
      for (const queue of queues.values()) queue.close('the mock stopped')
    },
    publish(event) {
      const user = event.data.user
      const logged: LoggedEvent = {
        id: `msg_${randomHex(12)}`,
        type: event.type,
        organizationId: user.organizationId,
        userId: user.id,
        payload: event,
        deliveries: [],
      }
      log.add(logged)
      // Never inside the change nor before the API's answer: delivery starts on a later turn.
      setTimeout(() => {
        const body = JSON.stringify(event)
        for (const queue of queues.values()) {
          if (receives(queue.endpoint, logged.organizationId)) queue.enqueue(logged, body)
        }
        for (const listener of listeners) notify(listener, logged)
      }, 0)
    },
  }
}

function notify(listener: (event: LoggedEvent) => void, event: LoggedEvent): void {
  try {
    listener(event)
  } catch (error) {
    // A test's callback that throws must not break delivery to the others; it is reported, not swallowed.
    queueMicrotask(() => {
      throw error
    })
  }
}
