import type * as StandardWebhooks from 'standardwebhooks'
import type { UserEvent } from '../domain/user-events.js'
import { DeliveryScheduler, nextTurn } from './delivery-scheduler.js'
import { sendWithFetch, type DeliverySender } from './delivery-sender.js'
import { DEFAULT_DELIVERY_SETTINGS, type DeliverySettings } from './delivery-settings.js'
import { EndpointQueue, type Signer } from './endpoint-queue.js'
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
  /** How deliveries go out (default: the global fetch); the Node server's holds them to the hosts it allows. */
  send?: DeliverySender
}

/**
 * Deliveries handed to their endpoints' queues in one turn of the event loop, at most: with 100 endpoints,
 * handing every event to all of them at once held the API's answers (a PATCH took 104 ms, not 7).
 */
const FAN_OUT_SLICE = 8

/**
 * Deliveries in flight at once, all endpoints together: what the API may find read in one turn besides
 * its request, when answers to deliveries come in a burst.
 */
const DELIVERIES_IN_FLIGHT = 64

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
  const send = options.send ?? sendWithFetch
  const sign = createSigner()
  const scheduler = new DeliveryScheduler(DELIVERIES_IN_FLIGHT)
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
    queues.set(endpoint.id, new EndpointQueue(endpoint, settings, log, send, sign, scheduler))
    return endpoint
  }
  const unsubscribe = (id: string): boolean => {
    queues.get(id)?.close('the endpoint was removed')
    return queues.delete(id)
  }
  for (const request of options.endpoints ?? []) subscribe(request)

  const endpoints = (): WebhookEndpoint[] => [...queues.values()].map((queue) => queue.endpoint)
  const fanOut = createFanOut(queues, listeners)

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
      fanOut.clear()
      for (const [id, queue] of queues) {
        queue.close('the mock was reset')
        queues.set(id, new EndpointQueue(queue.endpoint, settings, log, send, sign, scheduler))
      }
      log.clear()
    },
    idle: async () => {
      // Events published before this call reach their queues on later turns (publish): let them.
      await fanOut.drained()
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
      fanOut.add(logged)
    },
  }
}

/**
 * Hands each event to the queues of the endpoints that receive it, and to the in-process listeners:
 * never inside the change nor before the API's answer (on a later turn), and at most FAN_OUT_SLICE
 * deliveries a turn, so that requests are answered in between whatever the number of endpoints.
 */
function createFanOut(
  queues: ReadonlyMap<string, EndpointQueue>,
  listeners: ReadonlySet<(event: LoggedEvent) => void>,
): FanOut {
  const waiting: Array<{ event: LoggedEvent; body?: string; endpoints?: EndpointQueue[] }> = []
  const onDrained: Array<() => void> = []
  let scheduled = false
  const work = (): void => {
    scheduled = false
    let handed = 0
    while (waiting.length > 0 && handed < FAN_OUT_SLICE) {
      const next = waiting[0] as (typeof waiting)[number]
      if (next.endpoints === undefined) {
        next.body = JSON.stringify(next.event.payload)
        next.endpoints = [...queues.values()].filter((queue) => receives(queue.endpoint, next.event.organizationId))
        for (const listener of listeners) notify(listener, next.event)
      }
      for (const queue of next.endpoints.splice(0, FAN_OUT_SLICE - handed)) {
        handed += 1
        // An endpoint removed meanwhile drops it, as its queue is closed.
        queue.enqueue(next.event, next.body as string)
      }
      if (next.endpoints.length === 0) waiting.shift()
    }
    if (waiting.length > 0) schedule()
    else for (const resolve of onDrained.splice(0)) resolve()
  }
  const schedule = (): void => {
    if (scheduled) return
    scheduled = true
    nextTurn(work)
  }
  return {
    add(event) {
      waiting.push({ event })
      schedule()
    },
    drained: () => (waiting.length === 0 ? Promise.resolve() : new Promise((resolve) => onDrained.push(resolve))),
    clear() {
      waiting.length = 0
      for (const resolve of onDrained.splice(0)) resolve()
    },
  }
}

interface FanOut {
  add(event: LoggedEvent): void
  /** Resolves once every event added so far is in its endpoints' queues. */
  drained(): Promise<void>
  /** Forgets the events not handed over yet (a reset). */
  clear(): void
}

/**
 * Signs a delivery once for all the endpoints that share its secret, within the same second (most share
 * the mock's; a cache of the signers by secret and of the last second's signatures): signing is the costly part of an attempt, and the library does it in JavaScript.
 * The library is loaded by the first delivery: a mock nobody subscribes to never loads it (issue 21's start).
 */
function createSigner(): Signer {
  const signers = new Map<string, StandardWebhooks.Webhook>()
  const recent = new Map<string, string>()
  let library: Promise<typeof StandardWebhooks> | undefined
  return async (secret, id, seconds, body) => {
    const key = `${secret}\n${id}\n${seconds}`
    const known = recent.get(key)
    if (known !== undefined) return known
    let signer = signers.get(secret)
    if (signer === undefined) {
      library ??= import('standardwebhooks')
      const { Webhook } = await library
      // Endpoints come and go with secrets of their own: the signers of a few hundred at most are kept.
      if (signers.size >= 256) signers.clear()
      signer = new Webhook(secret)
      signers.set(secret, signer)
    }
    const signature = signer.sign(id, new Date(seconds * 1000), body)
    // A few hundred recent signatures at most: the attempts of one moment.
    if (recent.size >= 512) recent.clear()
    recent.set(key, signature)
    return signature
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
