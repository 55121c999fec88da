import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { createServer } from '../http/node-http.js'
import { waitsToSendMoreThan } from '../http/expect-continue.js'
import { BODY_TIMEOUT_MS, dropStalledBodies } from '../http/body-timeout.js'
import { guardConnections } from '../http/connection-guard.js'
import { BODY_LIMIT } from '../spec/contract-limits.js'
import type { AddressInfo, Socket } from 'node:net'
import { DEFAULT_MAX_RESPONSE_BYTES } from '../http/response-limits.js'
import { loadSpec, type LoadedSpec } from '../spec/load-spec.js'
import { CopyBudget } from './copy-budget.js'
import { ExchangeObserver } from './exchange-observer.js'
import type { FindingEntry } from './finding-entry.js'
import { FindingLog } from './finding-log.js'
import { ExchangeJudge } from './judge-exchange.js'
import { DEFAULT_KNOWLEDGE_LIMITS, Knowledge, type KnowledgeLimits } from './knowledge.js'
import { PROXY_ANSWER_HEADER, ProxyError, proxyProblemOf, sendProxyProblem } from './proxy-error.js'
import { isProxyRoute, ProxyRoutes } from './proxy-routes.js'
import { openUpstream } from './upstream.js'

export interface ProxyOptions {
  /** The backend: an http(s) origin, with a path prefix if it has one. */
  upstream: string
  /** Default 4020; 0 for any free port. */
  port?: number
  /** Default 127.0.0.1: loopback only, unless the caller opens it. */
  host?: string
  /** The document to hold the backend to (a path or a loaded one); default openapi/users.yaml. */
  spec?: string | LoadedSpec
  /** Per exchange, to the answer's last byte (verify's --request-timeout; default 10000). */
  timeoutMs?: number
  /** Per answer, after decompression (verify's --max-response-bytes; default 1 MiB). */
  maxResponseBytes?: number
  /** What the copies of the answers in flight may hold together (default 32 MiB). */
  copyBudgetBytes?: number
  /** Findings kept for the page and the reports (default 200); counts are kept of all. */
  keep?: number
  knowledgeLimits?: KnowledgeLimits
  /** Called with each finding as it is made (the CLI prints violations to stderr). */
  onFinding?: (entry: FindingEntry) => void
}

export interface RunningProxy {
  /** `http://127.0.0.1:4020`: point the client here. */
  url: string
  upstream: string
  log: FindingLog
  /** Resolves once every exchange forwarded so far has been judged. */
  settled(): Promise<void>
  /** Stops listening and ends every connection, those in flight included: call `settled()` first to judge them. */
  close(): Promise<void>
}

/**
 * The proxy parses what its upstream would: requests without Host (HTTP/1.0 clients; Host is the
 * upstream's anyway) and headers up to 64 KiB, so that a backend's own limit (the users API's is 16 KiB,
 * docs/contract.md §7) is the one a client meets, not node's 16 KiB default answered 431 by the proxy.
 */
const SERVER_OPTIONS = { requireHostHeader: false, maxHeaderSize: 64 * 1024 }

const DEFAULTS = { port: 4020, host: '127.0.0.1', timeoutMs: 10_000, copyBudgetBytes: 32 * 1024 * 1024 }

/**
 * Starts a validating proxy in front of one users API backend: every request goes to the upstream
 * unchanged, every answer back to the client unchanged, and each exchange is then judged against the
 * document and docs/contract.md (docs/proxy.md). It never sends a request of its own.
 *
 * @example
 * const proxy = await startProxy({ upstream: 'http://127.0.0.1:4010', port: 0 })
 * await fetch(`${proxy.url}/api/users/me`, { headers: { authorization: 'Bearer owner-token' } })
 * await proxy.settled()
 * proxy.log.counts.violations // 0 against a correct backend
 */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const upstream = openUpstream(options.upstream)
  const spec = typeof options.spec === 'object' ? options.spec : await loadSpec(options.spec)
  const knowledge = new Knowledge(options.knowledgeLimits ?? DEFAULT_KNOWLEDGE_LIMITS)
  const log = new FindingLog(options.keep)
  const routes = new ProxyRoutes(log)
  const observer = new ExchangeObserver({
    upstream,
    knowledge,
    log,
    judge: new ExchangeJudge(spec, knowledge),
    limits: {
      timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      budget: new CopyBudget(options.copyBudgetBytes ?? DEFAULTS.copyBudgetBytes),
    },
    ...(options.onFinding ? { onFinding: options.onFinding } : {}),
  })
  const pending = new Set<Promise<void>>()

  const server = createServer(SERVER_OPTIONS, (request, response) => {
    const target = request.url ?? '/'
    if (isProxyRoute(target)) return routes.handle(request, response)
    // Absolute-form and asterisk-form targets name another server: the client never chooses the upstream.
    if (!target.startsWith('/'))
      return sendProxyProblem(
        response,
        new ProxyError(
          'TARGET_REFUSED',
          `The proxy forwards to ${upstream.url} only; send origin-form request targets (/api/…).`,
        ),
      )
    const done = observer.observe(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        sendProxyProblem(response, new ProxyError('BAD_GATEWAY', `The proxy failed: ${(error as Error).message}`))
      else response.destroy()
    })
    pending.add(done)
    void done.finally(() => pending.delete(done))
  })
  // The mock's bounds on its clients (docs/decisions/0010): a flood of connections closes the slowest, a
  // body that stalls is dropped.
  guardConnections(server)
  dropStalledBodies(server, (socket) =>
    writeRawProblem(
      socket,
      new ProxyError(
        'BODY_STALLED',
        `No byte of the request's body came for ${BODY_TIMEOUT_MS / 1000} s; nothing more was forwarded.`,
      ),
    ),
  )
  // An Expect other than 100-continue: node would answer 417 itself; the upstream decides, as for any header.
  server.on('checkExpectation', (request, response) => server.emit('request', request, response))
  // Expect: 100-continue: the proxy asks for a body within the users API's limit itself, as node would;
  // one over it is the upstream's to ask for or refuse (forward-exchange.ts), never invited unseen. The
  // connection then closes after the answer: the client may send the body anyway (RFC 9110 §10.1.1).
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if (waitsToSendMoreThan(request, BODY_LIMIT)) response.setHeader('connection', 'close')
    else response.writeContinue()
    server.emit('request', request, response)
  })
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => refuseUnparsable(error, socket))
  server.on('connect', (_request, socket: Socket) => refuseTunnel(socket, 'CONNECT'))
  server.on('upgrade', (_request, socket: Socket) => refuseTunnel(socket, 'a protocol upgrade'))
  await listen(server, options.port ?? DEFAULTS.port, options.host ?? DEFAULTS.host)
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${host}:${address.port}`,
    upstream: upstream.url,
    log,
    async settled() {
      while (pending.size > 0) await Promise.all([...pending])
    },
    async close() {
      routes.close()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        // Kept-alive connections would hold the close for node's 5 s: a stopped proxy forwards nothing more.
        server.closeAllConnections()
      })
      upstream.close()
    },
  }
}

function refuseTunnel(socket: Socket, what: string): void {
  writeRawProblem(
    socket,
    new ProxyError(
      'METHOD_REFUSED',
      `The proxy forwards HTTP requests to its one upstream; it opens no tunnel (${what}).`,
    ),
  )
}

/** Bytes node's parser refuses (not HTTP, headers past 64 KiB) never reach the upstream: the proxy says so. */
function refuseUnparsable(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return
  const what =
    error.code === 'HPE_HEADER_OVERFLOW' ? 'a request line and headers over 64 KiB' : 'a request that is not HTTP/1.1'
  writeRawProblem(
    socket,
    new ProxyError(
      'TARGET_REFUSED',
      `The proxy could not read ${what} (${error.code ?? 'parse error'}); nothing was forwarded.`,
    ),
  )
}

/** A problem written on a socket no HTTP response object holds, then the connection closed. */
function writeRawProblem(socket: Socket, error: ProxyError): void {
  const { status, title, body } = proxyProblemOf(error)
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${PROXY_ANSWER_HEADER}: answered by users-api-kit proxy, not by the upstream\r\nconnection: close\r\n\r\n${body}`,
  )
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
}
