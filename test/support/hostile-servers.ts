import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer as createNetServer, type Server, type Socket } from 'node:net'
import { Readable, type Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { constants, createGzip } from 'node:zlib'
import { gateDisposableUsers } from '../../src/cli/gate-prerequisites.js'
import type { MockTarget } from '../../src/mock-instance/create-target.js'

/** A server that listens on 127.0.0.1 on a free port; `close` ends it and every connection it holds. */
export interface HostileServer {
  /** `http://127.0.0.1:PORT`, no trailing slash: a target's baseUrl. */
  url: string
  /** How many requests (HTTP servers) or connections (raw servers) it got. */
  hits(): number
  close(): Promise<void>
}

/** A target for a server with every actor, both inactive users and as many disposable users as `gate` needs: no check lacks a token. */
export function targetFor(baseUrl: string): MockTarget {
  const actors = { owner: 'owner-token', admin: 'admin-token', viewer: 'viewer-token', bot: 'bot-token' }
  return {
    baseUrl,
    actors: {
      ...Object.fromEntries(Object.entries(actors).map(([name, token]) => [name, { token }])),
      outsider: { token: 'globex-admin-token' },
    },
    // Not 'invited-token': reports name the sentence §2.invited-token, which would look like a leak.
    inactive: { invited: { token: 'token-of-an-invited-user' }, suspended: { token: 'token-of-a-suspended-user' } },
    disposable: Array.from({ length: gateDisposableUsers(false) }, (_, index) => ({
      id: `usr_disposable${index}`,
      token: `disposable-${index}`,
    })),
    // A receiver, so that the webhook checks run too (and fail on the server's first answer).
    webhooks: { listen: '127.0.0.1:0', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
  }
}

/** Every token of a target: what must never appear in a report unless --show-secrets. */
export function tokensOf(target: MockTarget): string[] {
  const holders = [...Object.values(target.actors), ...Object.values(target.inactive ?? {}), ...target.disposable]
  return holders.map((holder) => holder?.token ?? '')
}

/**
 * Answers every request 500 `application/problem+json` whose detail echoes the request's
 * Authorization header, as a careless backend's error page might: a report must not pass it on.
 */
export function startEchoingServer(): Promise<HostileServer> {
  return startHttpServer((request, response) => {
    response.writeHead(500, { 'content-type': 'application/problem+json' })
    const detail = `Internal error for ${request.headers.authorization ?? 'nobody'}`
    response.end(JSON.stringify({ type: 'about:blank', title: 'Internal Server Error', status: 500, detail }))
  })
}

/** Accepts every connection, reads the request, and never answers. */
export function startHangingServer(): Promise<HostileServer> {
  return startRawServer(() => {
    // Nothing: the socket stays open until the client gives up or the server closes.
  })
}

/** Sends a TCP RST as soon as the first bytes of a request arrive. */
export function startResettingServer(): Promise<HostileServer> {
  return startRawServer((socket) => socket.once('data', () => socket.resetAndDestroy()))
}

/** Answers every request with bytes that are not HTTP, then closes the connection. */
export function startGarbageServer(): Promise<HostileServer> {
  return startRawServer((socket) =>
    socket.once('data', () => socket.end('\u0000\u00ffSSH-2.0-OpenSSH_9.6 garbage\r\n')),
  )
}

/**
 * Answers every request 200 `application/json`, chunked, and breaks the chunked framing after one chunk
 * (a chunk size that is not hexadecimal): with `pauseMs`, the head and the first chunk come first and the
 * broken bytes that long after; without, all in one write.
 */
export function startBrokenChunksServer(pauseMs?: number): Promise<HostileServer> {
  const head = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n5\r\n{"a":\r\n'
  const broken = 'zz\r\nnot a chunk\r\n'
  return startRawServer((socket) =>
    socket.once('data', () => {
      if (pauseMs === undefined) return void socket.end(head + broken)
      socket.write(head)
      setTimeout(() => socket.end(broken), pauseMs)
    }),
  )
}

/**
 * Answers every request with an HTML page: `200 text/html` as a web server's default page, or `502` as
 * a reverse proxy's error page in front of a backend that is down.
 */
export function startHtmlServer(status: 200 | 502): Promise<HostileServer> {
  const page =
    status === 200
      ? '<!DOCTYPE html><html><head><title>Welcome to nginx!</title></head><body><h1>Welcome</h1></body></html>'
      : '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>'
  return startHttpServer((_request, response) => {
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' })
    response.end(page)
  })
}

/** Answers every request with a 302 to the same URL: a redirect loop. */
export function startRedirectLoopServer(): Promise<HostileServer> {
  return startHttpServer((request, response) => {
    response.writeHead(302, { location: request.url ?? '/' })
    response.end()
  })
}

/** Answers every request with a 301 to the same path on `elsewhere` (another host or port). */
export function startRedirectElsewhereServer(elsewhere: string): Promise<HostileServer> {
  return startHttpServer((request, response) => {
    response.writeHead(301, { location: `${elsewhere}${request.url ?? '/'}` })
    response.end()
  })
}

const MiB = 1024 * 1024

/**
 * A body of `bytes` spaces, made as it is read (64 KiB at a time, as the client takes them): a
 * gigabyte costs the server nothing until someone reads it, and the client's refusal ends it.
 */
function spaces(bytes: number): Readable {
  const chunk = Buffer.alloc(64 * 1024, 0x20)
  let left = bytes
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null)
      const size = Math.min(left, chunk.length)
      left -= size
      this.push(size === chunk.length ? chunk : chunk.subarray(0, size))
    },
  })
}

/** Streams `body` into the response, through `transform` if given; a client that gives up ends it quietly. */
function stream(response: ServerResponse, body: Readable, transform?: Transform): void {
  const done = transform ? pipeline(body, transform, response) : pipeline(body, response)
  done.catch(() => undefined)
}

/** Answers every request 200 `application/json` with a 1 GiB body, announced by its Content-Length. */
export function startHugeBodyServer(): Promise<HostileServer> {
  return startHttpServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(1024 * MiB) })
    stream(response, spaces(1024 * MiB))
  })
}

/** Answers every request 200 `application/json` with a chunked body that never ends. */
export function startEndlessServer(): Promise<HostileServer> {
  return startHttpServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    stream(response, spaces(Number.POSITIVE_INFINITY))
  })
}

/**
 * Answers every request 200 `application/json` with `Content-Encoding: gzip`, 10 GiB once
 * decompressed, about 10 MB on the wire: compressed as it is read, so only what the client takes is
 * ever made.
 */
export function startGzipBombServer(): Promise<HostileServer> {
  return startHttpServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
    stream(response, spaces(10 * 1024 * MiB), createGzip({ level: constants.Z_BEST_COMPRESSION }))
  })
}

/**
 * Answers every request's status and headers at once, then its body one byte every `intervalMs`,
 * never ending: each read of the socket gets something well within a per-read timeout.
 */
export async function startTrickleServer(intervalMs = 200): Promise<HostileServer & { longestOpenMs(): number }> {
  let longest = 0
  const open = new Set<number>()
  const server = await startHttpServer((_request, response) => {
    const started = performance.now()
    open.add(started)
    response.writeHead(200, { 'content-type': 'application/json' })
    response.write('{')
    const timer = setInterval(() => response.write(' '), intervalMs)
    response.on('close', () => {
      clearInterval(timer)
      open.delete(started)
      longest = Math.max(longest, performance.now() - started)
    })
  })
  return {
    ...server,
    /** The longest a body stayed open before the client gave up on it; infinite while one is open still. */
    longestOpenMs: () => (open.size > 0 ? Number.POSITIVE_INFINITY : longest),
  }
}

/**
 * What a hostile server writes to make a terminal misbehave: retitle the window (OSC 0), clear the
 * screen, move the cursor home, forge a line of the log, and the same through an 8-bit CSI (U+009B).
 */
export const ESCAPE_SEQUENCES = {
  retitle: '\u001b]0;owned by the backend\u0007',
  clear: '\u001b[2J\u001b[H',
  forgedLine: '\r\n✓ every check passed, exit 0\r\n',
  csi: '\u009b31mred',
}

/**
 * Answers GET /api/users/me with an HTML page whose title retitles the terminal (what the pre-check
 * reads), and every other request with a 500 `application/problem+json` whose raw text carries every
 * sequence of ESCAPE_SEQUENCES, raw (not valid JSON: control characters are not allowed in strings).
 */
export function startEscapeSequenceServer(): Promise<HostileServer> {
  const { retitle, clear, forgedLine, csi } = ESCAPE_SEQUENCES
  return startHttpServer((request, response) => {
    if (request.url === '/api/users/me') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      return void response.end(`<html><head><title>${retitle}${clear}</title></head></html>`)
    }
    response.writeHead(500, { 'content-type': 'application/problem+json' })
    response.end(`{"title":"${retitle}","detail":"${clear}${forgedLine}","code":"${csi}","status":500}`)
  })
}

/** Answers every request 200 `application/json` with arrays nested `depth` deep (100,000: 200 KB). */
export function startDeepNestingServer(depth = 100_000): Promise<HostileServer> {
  const body = `${'['.repeat(depth)}${']'.repeat(depth)}`
  return startHttpServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(body)
  })
}

/**
 * Answers every request 200 `application/json` with a valid page of `count` empty objects (349,000: just
 * under 1 MiB, within every byte and depth limit): what it costs is what a client builds of it.
 */
export function startManyValuesServer(count = 349_000): Promise<HostileServer> {
  const body = `{"data":[${'{},'.repeat(count - 1)}{}],"meta":{"page":1,"limit":20,"total":${count},"totalPages":1}}`
  return startHttpServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(body)
  })
}

/** A server on a free loopback port that answers every request with `handle`, counting them. */
export async function startHttpServer(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<HostileServer> {
  let hits = 0
  const server = createHttpServer((request, response) => {
    hits += 1
    // Read the request body to its end, so that the answer is never a reply to a half-sent request.
    request.resume()
    request.on('end', () => handle(request, response))
  })
  const url = await listen(server)
  return {
    url,
    hits: () => hits,
    close: async () => {
      server.closeAllConnections()
      await closeServer(server)
    },
  }
}

async function startRawServer(onConnection: (socket: Socket) => void): Promise<HostileServer> {
  const sockets = new Set<Socket>()
  let connections = 0
  const server = createNetServer((socket) => {
    connections += 1
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    // A client that gives up resets the connection: nothing to report here.
    socket.on('error', () => undefined)
    onConnection(socket)
  })
  const url = await listen(server)
  return {
    url,
    hits: () => connections,
    close: async () => {
      // server.close() waits for open connections: a hanging server's would keep it open for ever.
      for (const socket of sockets) socket.destroy()
      await closeServer(server)
    },
  }
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('not listening on TCP')
  return `http://127.0.0.1:${address.port}`
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
}
