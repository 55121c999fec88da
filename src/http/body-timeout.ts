import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { announcesBody } from './announces-body.js'

/**
 * How long a request's body may go without a byte before it is dropped: nginx's `client_body_timeout`,
 * the time between two reads, not the whole body (the server's request timeout bounds that). A client
 * sends a body of the users API (16 KiB at most) at once; one that stops holds a connection and, through
 * the proxy, a connection to the upstream.
 */
export const BODY_TIMEOUT_MS = 10_000

/** How often the bodies still arriving are looked at: a stalled one goes within a second of its timeout. */
const SWEEP_MS = 1_000

/** A body still arriving: its answer, and when its connection last read a byte. */
interface Arriving {
  response: ServerResponse
  bytesRead: number
  since: number
}

/**
 * Drops every request whose body goes `timeoutMs` without a byte: `refuse` answers it on the socket (as
 * node answers its own 408), unless something of the answer went already, and the connection is
 * destroyed. Each second, the connections of the bodies still arriving are asked how many bytes they
 * have read: no listener on the bodies, and no timer of the socket's, which node keeps for keep-alive.
 *
 * @example
 * dropStalledBodies(server, (socket) => socket.write('HTTP/1.1 408 Request Timeout\r\n…'))
 */
export function dropStalledBodies(
  server: Server,
  refuse: (socket: IncomingMessage['socket']) => void,
  timeoutMs = BODY_TIMEOUT_MS,
): void {
  const arriving = new Map<IncomingMessage, Arriving>()
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (request.complete || !announcesBody(request)) return
    arriving.set(request, { response, bytesRead: request.socket.bytesRead, since: performance.now() })
  })
  const sweep = setInterval(() => {
    const now = performance.now()
    for (const [request, seen] of arriving) {
      const { socket } = request
      if (request.complete || socket.destroyed) arriving.delete(request)
      else if (socket.bytesRead !== seen.bytesRead) Object.assign(seen, { bytesRead: socket.bytesRead, since: now })
      else if (now - seen.since >= timeoutMs) {
        arriving.delete(request)
        if (!seen.response.headersSent && socket.writable) refuse(socket)
        socket.destroy()
      }
    }
  }, SWEEP_MS).unref()
  server.once('close', () => clearInterval(sweep))
}
