import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer as createNetServer, type Server, type Socket } from 'node:net'

/** A server that listens on 127.0.0.1 on a free port; `close` ends it and every connection it holds. */
export interface HostileServer {
  /** `http://127.0.0.1:PORT`, no trailing slash: a target's baseUrl. */
  url: string
  /** How many requests (HTTP servers) or connections (raw servers) it got. */
  hits(): number
  close(): Promise<void>
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

async function startHttpServer(
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
