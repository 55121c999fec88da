import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { createServer } from '../../src/http/node-http.js'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { parseBoundedJson } from '../../src/text/json-depth.js'
import type { WebhookReceiverSettings } from '../../src/contract/target/target.js'

/** A delivery as the receiver got it, verified on arrival. */
export interface ReceivedDelivery {
  id: string
  /** The `webhook-timestamp` header, Unix seconds as sent. */
  timestamp: string
  body: string
  /** The parsed body; undefined when it is not JSON. */
  payload: unknown
  receivedAt: number
  /** Why the signature does not verify with the target's secret; undefined when it does. */
  signatureProblem?: string
  /** Whether this delivery was answered 500 on purpose (to see a retry). */
  refused: boolean
  /** The first delivery of its id only: what the API showed when it arrived (inspect). */
  seen?: unknown
}

/** Deliveries a check keeps unanswered, to see whether the API's answer waits for them. */
export interface Hold {
  /** When each held delivery arrived and when its wait ended (released, timed out, or the sender gave up). */
  readonly held: Array<{ delivery: ReceivedDelivery; endedAt?: number; endedBy?: 'release' | 'timeout' | 'sender' }>
  /** Resolves when the first delivery is held. */
  readonly firstHeld: Promise<ReceivedDelivery>
  /** Answers every held delivery (2xx) and holds no more. */
  release(): void
}

/**
 * What a check waits for, so that a wait that came to nothing is not waited out again by the next check:
 * an event of a type, or a retry of a refused delivery.
 */
export type Awaited = 'user.updated' | 'user.deleted' | 'retry'

/** What a check asks of deliveries still to come. */
interface Waiter {
  matches: (delivery: ReceivedDelivery) => boolean
  resolve: (delivery: ReceivedDelivery) => void
}

/** A body larger than this is no event of the users API (one is about 1 KB): refused unread, 413. */
const MAX_BODY_BYTES = 64 * 1024
/**
 * Forged deliveries (a signature that does not verify) answered within one second, at most; past it, 429.
 * Only forgeries count: a flood of them must not delay the backend's own deliveries, which verify and are
 * always taken (a run failed three webhook checks when every delivery shared one budget).
 */
const MAX_FORGERIES_PER_SECOND = 1_000
/** Bytes of verified deliveries kept for the checks, far above a run's (about 50 events); past it, dropped. */
const MAX_KEPT_BYTES = 8 * 1024 * 1024
/** Forged deliveries kept to be reported (the first) and to be matched (the last); the others are counted. */
const MAX_KEPT_FORGERIES = 20
/** Connections the receiver holds at once: a backend delivers on a few. */
const MAX_CONNECTIONS = 64

/**
 * The suite's webhook receiver (docs/contract.md §6): an HTTP server that verifies every delivery's
 * Standard Webhooks signature with the target's secret (the standardwebhooks library), keeps them for
 * the checks, can refuse chosen deliveries to see their retries or hold them unanswered to see that the
 * API does not wait for them, and looks at the API when an event first arrives (was the change already
 * visible?).
 *
 * Anything on the machine can reach it: what a delivery may cost is bounded (its size, depth and number
 * of values, the deliveries a second, the bytes kept), and one whose signature does not verify is forged
 * as far as the checks know: kept apart (`forged`, `forgeries`), never one of `deliveries`, never refused,
 * held or inspected, and taken by a check only when it carries the change that check made. 824 forged deliveries of 1 MB took the receiver to 1.9 GiB, and forged ones made four
 * checks fail against a healthy mock; now only the check that counts them fails.
 */
export class WebhookReceiver {
  /** The deliveries whose signature verifies: the backend's. */
  readonly deliveries: ReceivedDelivery[] = []
  /** The first forged deliveries (a signature that does not verify with the target's secret), trimmed. */
  readonly forged: ReceivedDelivery[] = []
  /** The last forged deliveries, trimmed: a check that waits for its change finds it here, if it came signed wrongly. */
  private readonly recentForgeries: ReceivedDelivery[] = []
  /** How many forged deliveries came in all. */
  forgeries = 0
  /** Verified deliveries dropped, past the bytes the receiver keeps. */
  dropped = 0
  private kept = 0
  private second = { at: 0, count: 0 }
  private readonly waiters = new Set<Waiter>()
  private readonly refusals: Array<{ matches: (payload: unknown) => boolean; left: number }> = []
  private readonly holds = new Set<HoldEntry>()
  private readonly verifier: Webhook
  /** What verified deliveries have come: their event types, and 'retry' once a webhook-id came again. */
  private readonly seen = new Set<Awaited>()
  /** What a check waited its whole deadline for without any coming, with how long it waited. */
  private readonly missed = new Map<Awaited, number>()

  private constructor(
    private readonly server: Server,
    readonly url: string,
    secret: string,
    private readonly inspect: (payload: unknown) => Promise<unknown>,
  ) {
    this.verifier = new Webhook(secret)
  }

  /** Listens where the settings say; `inspect` runs on each event's first delivery, before the answer. */
  static async start(
    settings: WebhookReceiverSettings,
    inspect: (payload: unknown) => Promise<unknown>,
  ): Promise<WebhookReceiver> {
    const { host, port } = parseListen(settings.listen)
    const server = createServer()
    server.maxConnections = MAX_CONNECTIONS
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          new Error(
            `The webhook receiver cannot listen on ${settings.listen} (${error.code ?? error.message}): change "webhooks.listen" in the target.`,
          ),
        ),
      )
      server.listen(port, host, resolve)
    })
    const address = server.address() as AddressInfo
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address
    const local = ['0.0.0.0', '::'].includes(address.address) ? '127.0.0.1' : shown
    const url = settings.url ?? `http://${local}:${address.port}/`
    const receiver = new WebhookReceiver(server, url, settings.secret, inspect)
    server.on('request', (request, response) => {
      receiver.receive(request, response).then(
        // A body left unread (413, 429) would be read and dropped to keep the connection: it is closed.
        (status) => response.writeHead(status, status === 413 || status === 429 ? { connection: 'close' } : {}).end(),
        () => response.writeHead(400, { connection: 'close' }).end(),
      )
    })
    return receiver
  }

  /** Answers 500 to the next `times` deliveries whose payload matches: the sender must retry them. */
  refuse(matches: (payload: unknown) => boolean, times = 1): void {
    this.refusals.push({ matches, left: times })
  }

  /**
   * Leaves every delivery whose payload matches unanswered until `release()`, or `maxMs` at most
   * (docs/contract.md §6: delivering never slows down the API's answer, so the answer must come meanwhile).
   */
  hold(matches: (payload: unknown) => boolean, maxMs: number): Hold {
    let end = (_how: 'release' | 'timeout'): void => undefined
    const ended = new Promise<'release' | 'timeout'>((resolve) => (end = resolve))
    let held = (_delivery: ReceivedDelivery): void => undefined
    const firstHeld = new Promise<ReceivedDelivery>((resolve) => (held = resolve))
    const hold: Hold = { held: [], firstHeld, release: () => finish('release') }
    const entry = { matches, hold, ended, onHeld: held }
    const finish = (how: 'release' | 'timeout'): void => {
      clearTimeout(timer)
      this.holds.delete(entry)
      end(how)
    }
    const timer = setTimeout(() => finish('timeout'), maxMs)
    this.holds.add(entry)
    return hold
  }

  /**
   * The first delivery (already here or still to come) that matches, or undefined after `timeoutMs`. A
   * verified one is taken first; a forged one that matches is taken at once too: it carries the change a
   * check just made, so the backend sent it and signed it wrongly (its key, its timestamp), and the check
   * says so now rather than after its deadline. `awaited` names what is waited for: once a wait for it
   * came to nothing and none has come since, the next waits end at once (`missedNote` says why).
   */
  async next(
    matches: (delivery: ReceivedDelivery) => boolean,
    timeoutMs: number,
    awaited?: Awaited,
  ): Promise<ReceivedDelivery | undefined> {
    const found = this.deliveries.find(matches) ?? this.recentForgeries.find(matches)
    if (found) return found
    if (awaited !== undefined && this.missed.has(awaited) && !this.seen.has(awaited)) return undefined
    const delivery = await new Promise<ReceivedDelivery | undefined>((resolve) => {
      const waiter: Waiter = {
        matches,
        resolve: (delivery) => {
          clearTimeout(timer)
          this.waiters.delete(waiter)
          resolve(delivery)
        },
      }
      const timer = setTimeout(() => {
        this.waiters.delete(waiter)
        resolve(undefined)
      }, timeoutMs)
      this.waiters.add(waiter)
    })
    if (delivery === undefined && awaited !== undefined && !this.seen.has(awaited)) this.missed.set(awaited, timeoutMs)
    return delivery
  }

  /**
   * Why a wait for `awaited` ended before its deadline: an earlier check waited its whole deadline for
   * one and none has come since. Empty when it did not.
   */
  missedNote(awaited: Awaited): string {
    const waited = this.missed.get(awaited)
    if (waited === undefined || this.seen.has(awaited)) return ''
    const what = awaited === 'retry' ? 'a retry' : `a ${awaited}`
    return ` (not waited for again: an earlier check of this file waited ${waited / 1000} s for ${what} and none has come since)`
  }

  close(): Promise<void> {
    this.server.closeAllConnections()
    return new Promise((resolve) => this.server.close(() => resolve()))
  }

  private async receive(request: IncomingMessage, response: ServerResponse): Promise<number> {
    if (request.method !== 'POST') return 405
    const body = await readBody(request)
    if (body === undefined) return 413
    const header = (name: string): string => String(request.headers[name] ?? '')
    const delivery: ReceivedDelivery = {
      id: header('webhook-id'),
      timestamp: header('webhook-timestamp'),
      body,
      payload: parseJson(body),
      receivedAt: Date.now(),
      refused: false,
    }
    try {
      this.verifier.verify(body, {
        'webhook-id': delivery.id,
        'webhook-timestamp': delivery.timestamp,
        'webhook-signature': header('webhook-signature'),
      })
    } catch (error) {
      delivery.signatureProblem = (error as Error).message
    }
    // Answered as a verified one is, so that a backend that signs wrongly goes on as it would; a flood of
    // them past MAX_FORGERIES_PER_SECOND is refused (429), and only them.
    if (delivery.signatureProblem !== undefined) {
      if (!this.forgeryWithinRate()) return 429
      this.keepForged(delivery)
      // A forgery that matches what a check waits for is the backend's, signed wrongly: the check says so.
      for (const waiter of [...this.waiters]) if (waiter.matches(delivery)) waiter.resolve(delivery)
      return 204
    }
    if (this.kept + body.length > MAX_KEPT_BYTES) {
      this.dropped += 1
      return 204
    }
    this.kept += body.length
    const first = !this.deliveries.some((earlier) => earlier.id === delivery.id)
    const type = (delivery.payload as { type?: unknown } | undefined)?.type
    if (type === 'user.updated' || type === 'user.deleted') this.seen.add(type)
    if (!first) this.seen.add('retry')
    const refusal = this.refusals.find((entry) => entry.left > 0 && entry.matches(delivery.payload))
    if (refusal) {
      refusal.left -= 1
      delivery.refused = true
    } else if (first) {
      delivery.seen = await this.inspect(delivery.payload).catch((error: unknown) => ({ error: String(error) }))
    }
    this.deliveries.push(delivery)
    for (const waiter of [...this.waiters]) if (waiter.matches(delivery)) waiter.resolve(delivery)
    if (delivery.refused) return 500
    const holding = [...this.holds].find((entry) => entry.matches(delivery.payload))
    if (holding) await this.keepWaiting(holding, delivery, response)
    return 204
  }

  private keepForged(delivery: ReceivedDelivery): void {
    this.forgeries += 1
    const trimmed = { ...delivery, body: delivery.body.slice(0, 2_000) }
    if (this.forged.length < MAX_KEPT_FORGERIES) this.forged.push(trimmed)
    this.recentForgeries.push(trimmed)
    if (this.recentForgeries.length > MAX_KEPT_FORGERIES) this.recentForgeries.shift()
  }

  /** Whether this forgery is within MAX_FORGERIES_PER_SECOND (counted per second of the clock). */
  private forgeryWithinRate(): boolean {
    const at = Math.floor(Date.now() / 1000)
    if (this.second.at !== at) this.second = { at, count: 0 }
    this.second.count += 1
    return this.second.count <= MAX_FORGERIES_PER_SECOND
  }

  /** Until the hold ends or the sender closes the connection, whichever comes first. */
  private async keepWaiting({ hold, ended, onHeld }: HoldEntry, delivery: ReceivedDelivery, response: ServerResponse) {
    const record: Hold['held'][number] = { delivery }
    hold.held.push(record)
    onHeld(delivery)
    const closed = new Promise<'sender'>((resolve) => response.once('close', () => resolve('sender')))
    record.endedBy = await Promise.race([ended, closed])
    record.endedAt = Date.now()
  }
}

interface HoldEntry {
  matches: (payload: unknown) => boolean
  hold: Hold
  ended: Promise<'release' | 'timeout'>
  onHeld: (delivery: ReceivedDelivery) => void
}

function parseListen(listen: string): { host: string; port: number } {
  const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(listen)
  return { host: match?.[1] ?? '127.0.0.1', port: Number(match?.[2] ?? 0) }
}

/** The body, or undefined past MAX_BODY_BYTES (declared or sent): the rest is not read. */
async function readBody(request: IncomingMessage): Promise<string | undefined> {
  if (Number(request.headers['content-length']) > MAX_BODY_BYTES) return undefined
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) return undefined
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** The parsed body; undefined when it is not JSON, or nests or holds more than an answer may (json-depth.ts). */
function parseJson(text: string): unknown {
  try {
    return parseBoundedJson(text)
  } catch {
    return undefined
  }
}
