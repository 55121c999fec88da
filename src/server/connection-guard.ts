import type { Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/** Connections a mock keeps open at most: far more than a team's browsers and test runners use. */
export const MAX_CONNECTIONS = 512

/**
 * Caps the server's connections with a reserve for new clients: past `max`, the oldest connection that
 * carries no request in progress (one still sending its headers, or idle between requests) is closed.
 * Without it, thousands of slow or idle sockets exhausted the file descriptors and every new client was
 * refused; requests being answered are never cut.
 */
export function guardConnections(server: Server, max = MAX_CONNECTIONS): void {
  const open = new Set<Socket>()
  const busy = new Set<Socket>()
  server.on('connection', (socket: Socket) => {
    open.add(socket)
    socket.once('close', () => {
      open.delete(socket)
      busy.delete(socket)
    })
    if (open.size > max) closeOldestIdle(open, busy, socket)
  })
  server.on('request', (request: { socket: Socket }, response: ServerResponse) => {
    busy.add(request.socket)
    response.once('close', () => busy.delete(request.socket))
  })
}

function closeOldestIdle(open: Set<Socket>, busy: Set<Socket>, newest: Socket): void {
  // A Set iterates in insertion order: the oldest connection first.
  for (const socket of open) {
    if (socket === newest || busy.has(socket)) continue
    open.delete(socket)
    socket.destroy()
    return
  }
}
