import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/** Connections the mock (and the proxy) keeps open at most: far more than a team's browsers and test runners use. */
export const MAX_CONNECTIONS = 512

/** Event streams (`GET /__mock/events` as text/event-stream) at most: a few browser tabs and scripts. */
export const MAX_EVENT_STREAMS = 32

/**
 * How long a new connection may take to send its request before it counts as slow: a client sends its
 * head (and a PATCH's body) at once, but a busy server may read it a few hundred milliseconds later.
 */
const ARRIVING_MS = 1_000

/** What the guard knows of one connection, kept in the order the connections came. */
interface Connection {
  socket: Socket
  /** When it was opened (performance.now()): its age, for how fast it sends. */
  openedAt: number
  /** The request being read or answered; undefined before the first one. */
  request?: IncomingMessage
  /** Its response: being answered until it is finished or destroyed (read at eviction, not a listener a request). */
  response?: ServerResponse
  /** An event stream: answered for as long as it stays open. */
  stream: boolean
}

/** A kind of connection the cap closes, the lowest `rank` first (else the oldest). */
interface EvictionKind {
  of: (connection: Connection) => boolean
  rank?: (connection: Connection) => number
}

/**
 * Which connections go first when there are too many. Those still sending a request (no whole head yet,
 * or a body not whole): first those sending for over ARRIVING_MS, the slowest first (fewest bytes for
 * their age), a flood of slow heads or bodies; then those that have just opened, oldest first (closing
 * the oldest without a whole head, as the cap did, took a normal client's new connection beside 600 slow
 * bodies: 235 of its 2,000 PATCHes were reset). Then those idle between requests, oldest first; then those
 * being answered (a `Prefer: delay`, a slow `--latency`); event streams last. Never the newcomer.
 */
function evictionOrder(now: number): EvictionKind[] {
  const arrived = (connection: Connection) => now - connection.openedAt >= ARRIVING_MS
  return [
    { of: (connection) => isSending(connection) && arrived(connection), rank: (connection) => rateOf(connection, now) },
    { of: isSending },
    { of: (connection) => !isAnswering(connection) },
    { of: (connection) => !connection.stream },
    { of: () => true },
  ]
}

/** The one place that counts a server's connections (the mock's, the proxy's): every kind counts toward the same cap. */
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
 * {@link evictionOrder}. Slow or idle sockets by the thousand once exhausted the file descriptors,
 * and 16,860 event streams, slow bodies and delayed requests were not counted at all; closing the oldest
 * rather than refusing the newest means that a flood can never lock a fresh client out.
 */
export function guardConnections(server: Server, limits: ConnectionLimits = {}): ConnectionGuard {
  const maxConnections = limits.maxConnections ?? MAX_CONNECTIONS
  const maxStreams = limits.maxStreams ?? MAX_EVENT_STREAMS
  const connections = new Map<Socket, Connection>()
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { socket, openedAt: performance.now(), stream: false })
    socket.once('close', () => connections.delete(socket))
    if (connections.size > maxConnections)
      close(closeFirst(connections.values(), evictionOrder(performance.now()), socket))
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
      if (streams.length > maxStreams) close(closeFirst(streams, [{ of: () => true }], request.socket))
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

/** Still sending its request: no whole head yet, or a body not whole while it is being answered. */
function isSending(connection: Connection): boolean {
  return connection.request === undefined || (isAnswering(connection) && connection.request.complete === false)
}

/** How fast it has sent since it opened, in bytes a millisecond. */
function rateOf(connection: Connection, now: number): number {
  return connection.socket.bytesRead / Math.max(1, now - connection.openedAt)
}

/** The first connection of the first kind that has one (its lowest rank, else its oldest), never `newest`. */
function closeFirst(connections: Iterable<Connection>, order: EvictionKind[], newest: Socket): Socket | undefined {
  const candidates = [...connections].filter((connection) => connection.socket !== newest)
  for (const { of, rank } of order) {
    const ofKind = candidates.filter(of)
    if (ofKind.length === 0) continue
    if (rank === undefined) return ofKind[0]?.socket
    return ofKind.reduce((lowest, connection) => (rank(connection) < rank(lowest) ? connection : lowest)).socket
  }
  return undefined
}
