import { lookup, type LookupAddress, type LookupOptions } from 'node:dns'
import type { IncomingMessage } from 'node:http'
import { Agent as HttpAgent, request as httpRequest } from '../http/node-http.js'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { isIP, type LookupFunction, type Socket } from 'node:net'
import { AppError } from '../errors.js'
import { isLoopbackAddress, normalizeHost } from '../http/loopback-guard.js'
import type { DeliverySender } from '../webhooks/delivery-sender.js'

/** What the mock reads of an answer to a delivery before it lets the connection go. */
const MAX_ANSWER_BYTES = 64 * 1024
const ANSWER_READ_MS = 1_000

/**
 * Where the mock's server may send webhooks: loopback addresses, and the hosts named by
 * `--webhook-allow-host` or by `--webhook` on the command line. Anyone who reaches the control routes
 * can subscribe an endpoint (on a network without `--control-token`, anyone at all), and one PATCH made
 * the mock POST, with retries, to a cloud's metadata address or any host of the network.
 */
export interface WebhookHosts {
  /** At subscription: the URL's host is allowed, or resolves to loopback addresses only; else a 403. */
  assertAllowed(url: string): Promise<void>
  /**
   * How the server sends deliveries: node:http, with the address checked again after DNS resolution and
   * once connected (a name rebound meanwhile gets nowhere), redirects never followed.
   */
  send: DeliverySender
  /** Lets keep-alive connections go (the server is closing). */
  close(): void
}

/** DNS as node:dns's `lookup` answers it (every address); a test may give its own. */
export type ResolveHost = (
  host: string,
  options: LookupOptions & { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void

/**
 * @example
 * const hosts = createWebhookHosts(['hooks.example.com'])
 * await hosts.assertAllowed('http://169.254.169.254/latest') // throws a 403 AppError
 */
export function createWebhookHosts(
  allowedHosts: Iterable<string> = [],
  resolveHost: ResolveHost = lookup,
): WebhookHosts {
  const allowed = new Set([...allowedHosts].map(normalizeHost))
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) }
  const loopbackOnly = createLoopbackLookup(resolveHost)
  return {
    async assertAllowed(url) {
      const host = normalizeHost(new URL(url).hostname)
      if (allowed.has(host)) return
      const addresses = isIP(host) ? [host] : await resolve(resolveHost, host)
      const outside = addresses.find((address) => !isLoopbackAddress(address))
      if (addresses.length > 0 && outside === undefined) return
      throw new AppError(
        'FORBIDDEN',
        `The mock sends webhooks to loopback addresses only, and ${host}${outside !== undefined && outside !== host ? ` is ${outside}` : ' is none'}: start the mock with --webhook-allow-host ${host} to allow it.`,
      )
    },
    send: (url, { headers, body, signal }) =>
      new Promise((done, fail) => {
        const target = new URL(url)
        const host = normalizeHost(target.hostname)
        const trusted = allowed.has(host)
        if (!trusted && isIP(host) && !isLoopbackAddress(host)) return fail(refusal(host, host))
        const https = target.protocol === 'https:'
        const outgoing = (https ? httpsRequest : httpRequest)(
          target,
          {
            method: 'POST',
            headers: { ...headers, 'content-length': Buffer.byteLength(body) },
            agent: https ? agents.https : agents.http,
            signal,
            ...(trusted ? {} : { lookup: loopbackOnly }),
          },
          (answer) => {
            done(answer.statusCode ?? 0)
            letGo(answer)
          },
        )
        // Checked where it connected, not only where DNS said: the two may differ. A kept-alive socket the
        // agent hands out again was checked when it connected (a listener added to it each time never ran,
        // and piled up: node's MaxListenersExceededWarning after 10 deliveries).
        if (!trusted)
          outgoing.once('socket', (socket: Socket) => {
            if (socket.connecting) socket.once('connect', () => recheck(socket, host))
          })
        outgoing.once('error', fail)
        outgoing.end(body)
      }),
    close() {
      agents.http.destroy()
      agents.https.destroy()
    },
  }
}

function resolve(resolveHost: ResolveHost, host: string): Promise<string[]> {
  return new Promise((done) =>
    resolveHost(host, { all: true }, (error, addresses) => done(error ? [] : addresses.map((entry) => entry.address))),
  )
}

/** net's lookup, refusing a name any of whose addresses is not a loopback one. */
function createLoopbackLookup(resolveHost: ResolveHost): LookupFunction {
  return (host, options, callback) => {
    resolveHost(host, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0)
      const outside = addresses.find((entry) => !isLoopbackAddress(entry.address))
      const first = addresses[0]
      if (outside !== undefined || first === undefined) {
        return callback(refusal(host, outside?.address ?? 'nowhere'), '', 0)
      }
      if (options.all) callback(null, addresses)
      else callback(null, first.address, first.family)
    })
  }
}

function recheck(socket: Socket, host: string): void {
  const address = socket.remoteAddress ?? ''
  if (!isLoopbackAddress(address)) socket.destroy(refusal(host, address))
}

/** The attempt's error, as the event log shows it. */
function refusal(host: string, address: string): Error {
  return new Error(
    `not sent: ${host}${address === host ? '' : ` (${address})`} is no loopback address, and --webhook-allow-host does not name it`,
  )
}

/** The answer's body is not the mock's business: read a little of it (so that the connection is kept), then go. */
function letGo(answer: IncomingMessage): void {
  let read = 0
  const timer = setTimeout(() => answer.destroy(), ANSWER_READ_MS)
  timer.unref()
  answer.on('data', (chunk: Buffer) => {
    read += chunk.length
    if (read > MAX_ANSWER_BYTES) answer.destroy()
  })
  answer.once('close', () => clearTimeout(timer))
  answer.on('error', () => undefined)
}
