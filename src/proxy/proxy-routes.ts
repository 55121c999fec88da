import type { IncomingMessage, ServerResponse } from 'node:http'
import { isLoopbackAddress, isLoopbackHost } from '../http/loopback-guard.js'
import { isUnderPath } from '../http/request-target.js'
import type { FindingLog } from './finding-log.js'
import { PROXY_PAGE_HTML, PROXY_PAGE_SCRIPT } from './proxy-page.js'
import { ProxyError, sendProxyProblem } from './proxy-error.js'

/** The proxy's own routes live under this prefix; everything else goes to the upstream. */
const PROXY_ROUTES_PREFIX = '/__proxy'

/** As the mock's events page (src/server/webhook-routes.ts): scripts and connections to itself only. */
const CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'"
/** A stream whose reader fell this far behind is closed: a stalled tab costs bounded memory. */
const STREAM_BACKLOG_LIMIT = 1024 * 1024
/** Live pages open at once: each holds a connection and a timer. */
const MAX_STREAMS = 16
/** How often an open page's counts are brought up to date, and a quiet stream kept open. */
const COUNTS_EVERY_MS = 2_000
const HEARTBEAT_MS = 15_000

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
  private readonly streams = new Set<ServerResponse>()

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
      if (path === `${PROXY_ROUTES_PREFIX}/events`) return this.stream(request, response)
      throw new ProxyError('NOT_FOUND', `No ${path}: the proxy has ${PROXY_ROUTES_PREFIX}/, /events and /violations.`)
    } catch (error) {
      if (error instanceof ProxyError) sendProxyProblem(response, error)
      else throw error
    }
  }

  /** Ends every live stream: the proxy is stopping. */
  close(): void {
    for (const stream of this.streams) stream.end()
  }

  private page(response: ServerResponse): void {
    response.setHeader('content-security-policy', CONTENT_SECURITY_POLICY)
    send(response, 'text/html; charset=utf-8', PROXY_PAGE_HTML)
  }

  private violations(response: ServerResponse): void {
    send(response, 'application/json', JSON.stringify({ counts: this.log.counts, findings: this.log.recent() }))
  }

  /** The last findings, then each new one as it happens, until the page goes or the proxy stops. */
  private stream(request: IncomingMessage, response: ServerResponse): void {
    if (this.streams.size >= MAX_STREAMS)
      throw new ProxyError('TOO_MANY_STREAMS', `${MAX_STREAMS} live pages are open already; close one.`)
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    })
    const write = (text: string): void => {
      if (response.writableLength > STREAM_BACKLOG_LIMIT) response.destroy()
      else response.write(text)
    }
    // At once, so that the page's EventSource opens, and how soon to come back after a restart.
    write('retry: 2000\n\n')
    for (const entry of this.log.recent()) write(message('finding', { entry, counts: this.log.counts }))
    write(message('counts', this.log.counts))
    const stop = this.log.subscribe((entry, counts) => write(message('finding', { entry, counts })))
    let sent = JSON.stringify(this.log.counts)
    let quiet = 0
    const timer = setInterval(() => {
      const now = JSON.stringify(this.log.counts)
      quiet += COUNTS_EVERY_MS
      if (now !== sent) write(message('counts', this.log.counts))
      else if (quiet >= HEARTBEAT_MS) write(': still here\n\n')
      else return
      sent = now
      quiet = 0
    }, COUNTS_EVERY_MS)
    this.streams.add(response)
    request.on('close', () => {
      stop()
      clearInterval(timer)
      this.streams.delete(response)
    })
  }
}

function message(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`
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
