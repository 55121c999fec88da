import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/** Connections a mock keeps open at most: far more than a team's browsers and test runners use. */
export const MAX_CONNECTIONS = 512

/** Event streams (`GET /__mock/events` as text/event-stream) at most: a few browser tabs and scripts. */
export const MAX_EVENT_STREAMS = 32

/** What the guard knows of one connection, kept in the order the connections came. */
interface Connection {
  socket: Socket
  /** The request being read or answered; undefined before the first one. */
  request?: IncomingMessage
  /** Its response: being answered until it is finished or destroyed (read at eviction, not a listener a request). */
  response?: ServerResponse
  /** An event stream: answered for as long as it stays open. */
  stream: boolean
}

/**
 * Which connections go first when there are too many, each kind oldest first: those that never sent a
 * whole request head (slow or silent), those still sending a body, those idle between requests, those
 * being answered (a `Prefer: delay`, a slow `--latency`), event streams last. Never the newcomer.
 */
const EVICTION_ORDER: Array<(connection: Connection) => boolean> = [
  (connection) => connection.request === undefined,
  (connection) => isAnswering(connection) && connection.request?.complete === false,
  (connection) => !isAnswering(connection),
  (connection) => !connection.stream,
  () => true,
]

/** The one place that counts the mock's connections: every kind counts toward the same cap. */
export interface ConnectionGuard {
  /**
   * Marks the request's connection as an event stream. Past `maxStreams`, the oldest stream is closed
   * (its browser reconnects a moment later): a flood of streams never locks a new reader out.
   */
  holdStream(request: IncomingMessage): void
}

export interface ConnectionLimits {
  maxConnections?: number
  maxStreams?: number
}

/**
 * Caps the server's connections, whatever they are doing: past the cap, one is closed in
 * {@link EVICTION_ORDER}. Slow or idle sockets by the thousand once exhausted the file descriptors,
 * and 16,860 event streams, slow bodies and delayed requests were not counted at all; closing the oldest
 * rather than refusing the newest means that a flood can never lock a fresh client out.
 */
export function guardConnections(server: Server, limits: ConnectionLimits = {}): ConnectionGuard {
  const maxConnections = limits.maxConnections ?? MAX_CONNECTIONS
  const maxStreams = limits.maxStreams ?? MAX_EVENT_STREAMS
  const connections = new Map<Socket, Connection>()
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { socket, stream: false })
    socket.once('close', () => connections.delete(socket))
    if (connections.size > maxConnections) close(closeFirst(connections.values(), EVICTION_ORDER, socket))
  })
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const connection = connections.get(request.socket)
    if (connection === undefined) return
    connection.request = request
    connection.response = response
  })
  return {
    holdStream(request) {
      const connection = connections.get(request.socket)
      if (connection === undefined) return // app.inject(): no socket to count
      connection.stream = true
      const streams = [...connections.values()].filter((candidate) => candidate.stream)
      if (streams.length > maxStreams) close(closeFirst(streams, [() => true], request.socket))
    },
  }

  // Forgotten at once: a burst of new connections must not pick a socket that is closing already.
  function close(socket: Socket | undefined): void {
    if (socket === undefined) return
    connections.delete(socket)
    socket.destroy()
  }
}

function isAnswering({ response }: Connection): boolean {
  return response !== undefined && !response.writableFinished && !response.destroyed
}

/** The oldest connection of the first kind that has one, never `newest`. */
function closeFirst(
  connections: Iterable<Connection>,
  order: Array<(connection: Connection) => boolean>,
  newest: Socket,
): Socket | undefined {
  const candidates = [...connections].filter((connection) => connection.socket !== newest)
  for (const isOfKind of order) {
    const oldest = candidates.find(isOfKind)
    if (oldest !== undefined) return oldest.socket
  }
  return undefined
}
