import type { IncomingMessage, ServerResponse } from 'node:http'
import { isLoopbackAddress, isLoopbackHost } from '../http/loopback-guard.js'
import { isUnderPath } from '../http/request-target.js'
import { EventStreams, sseMessage } from '../http/event-stream.js'
import { LIVE_PAGE_CSP } from '../http/live-page.js'
import type { FindingEntry } from './finding-entry.js'
import type { FindingLog, ProxyCounts } from './finding-log.js'
import { PROXY_PAGE_HTML, PROXY_PAGE_SCRIPT } from './proxy-page.js'
import { ProxyError, sendProxyProblem } from './proxy-error.js'

/** The proxy's own routes live under this prefix; everything else goes to the upstream. */
const PROXY_ROUTES_PREFIX = '/__proxy'

/** Live pages open at once: each holds a connection and a timer. */
const MAX_STREAMS = 16
/** How often an open page's counts are brought up to date. */
const COUNTS_EVERY_MS = 2_000

/** Whether a request target is one of the proxy's own routes. */
export function isProxyRoute(target: string): boolean {
  return isUnderPath(target.split('?')[0] ?? '', PROXY_ROUTES_PREFIX)
}

/**
 * The proxy's own routes: `/__proxy/` (the live page of findings), `/__proxy/page.js` (its script),
 * `/__proxy/events` (SSE: each finding as it happens, and the counts) and `/__proxy/violations` (JSON:
 * the counts and the last findings). They show no token, and answer only GET and HEAD.
 */
export class ProxyRoutes {
  private readonly streams = new EventStreams()

  constructor(private readonly log: FindingLog) {}

  handle(request: IncomingMessage, response: ServerResponse): void {
    const path = (request.url ?? '/').split('?')[0]
    try {
      guardHost(request)
      if (request.method !== 'GET' && request.method !== 'HEAD')
        throw new ProxyError('METHOD_REFUSED', `${PROXY_ROUTES_PREFIX}/ routes answer GET only.`)
      if (path === PROXY_ROUTES_PREFIX || path === `${PROXY_ROUTES_PREFIX}/`) return this.page(response)
      if (path === `${PROXY_ROUTES_PREFIX}/page.js`)
        return send(response, 'text/javascript; charset=utf-8', PROXY_PAGE_SCRIPT)
      if (path === `${PROXY_ROUTES_PREFIX}/violations`) return this.violations(response)
      if (path === `${PROXY_ROUTES_PREFIX}/events`) return this.stream(response)
      throw new ProxyError('NOT_FOUND', `No ${path}: the proxy has ${PROXY_ROUTES_PREFIX}/, /events and /violations.`)
    } catch (error) {
      if (error instanceof ProxyError) sendProxyProblem(response, error)
      else throw error
    }
  }

  /** Ends every live stream: the proxy is stopping. */
  close(): void {
    this.streams.endAll()
  }

  private page(response: ServerResponse): void {
    response.setHeader('content-security-policy', LIVE_PAGE_CSP)
    send(response, 'text/html; charset=utf-8', PROXY_PAGE_HTML)
  }

  private violations(response: ServerResponse): void {
    send(response, 'application/json', JSON.stringify({ counts: this.log.counts, findings: this.log.recent() }))
  }

  /** The last findings, then each new one as it happens, until the page goes or the proxy stops. */
  private stream(response: ServerResponse): void {
    if (this.streams.size >= MAX_STREAMS)
      throw new ProxyError('TOO_MANY_STREAMS', `${MAX_STREAMS} live pages are open already; close one.`)
    const finding = (entry: FindingEntry, counts: ProxyCounts): string => sseMessage('finding', { entry, counts })
    const replay = this.log.recent().map((entry) => finding(entry, this.log.counts))
    let sent = JSON.stringify(this.log.counts)
    const stream = this.streams.open(response, { replay: `${replay.join('')}${sseMessage('counts', this.log.counts)}` })
    const stop = this.log.subscribe((entry, counts) => stream.write(finding(entry, counts)))
    const timer = setInterval(() => {
      const now = JSON.stringify(this.log.counts)
      if (now === sent) return
      stream.write(sseMessage('counts', this.log.counts))
      sent = now
    }, COUNTS_EVERY_MS)
    stream.onClose(() => {
      stop()
      clearInterval(timer)
    })
  }
}

function send(response: ServerResponse, contentType: string, body: string): void {
  response.writeHead(200, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  })
  response.end(body)
}

/**
 * As the mock's control routes (src/server/control-origin.ts): on a loopback address, only a Host that
 * names a loopback address, so that a page of another site rebound to 127.0.0.1 cannot read the
 * exchanges (user data of the API) that findings show.
 */
function guardHost(request: IncomingMessage): void {
  if (!isLoopbackAddress(request.socket.localAddress)) return
  const host = request.headers.host ?? ''
  if (isLoopbackHost(host)) return
  const name = host.replace(/:\d+$/, '').toLowerCase()
  throw new ProxyError(
    'HOST_REFUSED',
    `The proxy's own routes on a loopback address answer only to Host localhost or a loopback address, not ${name} (a protection against DNS rebinding).`,
  )
}
