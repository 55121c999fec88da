import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import type { WebhookReceiverSettings } from '../../src/contract/target.js'

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

/** What a check asks of deliveries still to come. */
interface Waiter {
  matches: (delivery: ReceivedDelivery) => boolean
  resolve: (delivery: ReceivedDelivery) => void
}

/** A body larger than this is no event of the users API: refused without being kept. */
const MAX_BODY_BYTES = 1024 * 1024
/** The receiver keeps what a run sends, bounded against a target that floods it. */
const MAX_DELIVERIES = 10_000

/**
 * The suite's webhook receiver (docs/contract.md §6): an HTTP server that verifies every delivery's
 * Standard Webhooks signature with the target's secret (the standardwebhooks library), keeps them for
 * the checks, can refuse chosen first deliveries to see their retry, and looks at the API when an
 * event first arrives (was the change already visible?).
 */
export class WebhookReceiver {
  readonly deliveries: ReceivedDelivery[] = []
  private readonly waiters = new Set<Waiter>()
  private readonly refuseOnce: Array<(payload: unknown) => boolean> = []
  private readonly verifier: Webhook

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
      receiver.receive(request).then(
        (status) => response.writeHead(status).end(),
        () => response.writeHead(400).end(),
      )
    })
    return receiver
  }

  /** Answers 500 to the first delivery whose payload matches, once: the sender must retry it. */
  refuseFirst(matches: (payload: unknown) => boolean): void {
    this.refuseOnce.push(matches)
  }

  /** The first delivery (already here or still to come) that matches, or undefined after `timeoutMs`. */
  async next(
    matches: (delivery: ReceivedDelivery) => boolean,
    timeoutMs: number,
  ): Promise<ReceivedDelivery | undefined> {
    const found = this.deliveries.find(matches)
    if (found) return found
    return new Promise((resolve) => {
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
  }

  close(): Promise<void> {
    this.server.closeAllConnections()
    return new Promise((resolve) => this.server.close(() => resolve()))
  }

  private async receive(request: IncomingMessage): Promise<number> {
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
    const first = !this.deliveries.some((earlier) => earlier.id === delivery.id)
    const refusal = first ? this.refuseOnce.findIndex((matches) => matches(delivery.payload)) : -1
    if (refusal !== -1) {
      this.refuseOnce.splice(refusal, 1)
      delivery.refused = true
    } else if (first) {
      delivery.seen = await this.inspect(delivery.payload).catch((error: unknown) => ({ error: String(error) }))
    }
    if (this.deliveries.length < MAX_DELIVERIES) this.deliveries.push(delivery)
    for (const waiter of [...this.waiters]) if (waiter.matches(delivery)) waiter.resolve(delivery)
    return delivery.refused ? 500 : 204
  }
}

function parseListen(listen: string): { host: string; port: number } {
  const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(listen)
  return { host: match?.[1] ?? '127.0.0.1', port: Number(match?.[2] ?? 0) }
}

async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) return undefined
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
