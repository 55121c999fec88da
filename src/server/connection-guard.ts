import type { Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/** Connections a mock keeps open at most: far more than a team's browsers and test runners use. */
export const MAX_CONNECTIONS = 512

/**
 * Caps the server's connections with a reserve for new clients: past `max`, the oldest connection that
 * has not sent a whole request yet (a slow or silent client) is closed, else the oldest one idle between
 * requests. Without it, thousands of slow or idle sockets exhausted the file descriptors and every new
 * client was refused; a request being answered is never cut, and a busy kept-alive client keeps its
 * connection while slow ones are there to close.
 */
export function guardConnections(server: Server, max = MAX_CONNECTIONS): void {
  const waiting = new Set<Socket>() // no whole request yet
  const idle = new Set<Socket>() // served, between requests
  const busy = new Set<Socket>()
  const forget = (socket: Socket): void => {
    waiting.delete(socket)
    idle.delete(socket)
    busy.delete(socket)
  }
  server.on('connection', (socket: Socket) => {
    waiting.add(socket)
    socket.once('close', () => forget(socket))
    if (waiting.size + idle.size + busy.size > max && !closeOldest(waiting, socket)) closeOldest(idle, socket)
  })
  server.on('request', (request: { socket: Socket }, response: ServerResponse) => {
    const socket = request.socket
    waiting.delete(socket)
    idle.delete(socket)
    busy.add(socket)
    response.once('close', () => {
      if (!busy.delete(socket) || socket.destroyed) return
      idle.add(socket)
    })
  })
}

/** Closes the oldest socket of a set (a Set iterates in insertion order), never the newcomer. */
function closeOldest(sockets: Set<Socket>, newest: Socket): boolean {
  for (const socket of sockets) {
    if (socket === newest) continue
    sockets.delete(socket)
    socket.destroy()
    return true
  }
  return false
}
