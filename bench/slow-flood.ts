import { connect, type Socket } from 'node:net'

/** What the flood did: sockets it held at most at once, opened in all, and those the mock closed. */
export interface FloodResult {
  target: number
  opened: number
  closedByMock: number
  heldAtEnd: number
}

/**
 * Slow clients beside the soak's traffic: `count` connections that send half a request line, then one
 * byte a second, and are opened again whenever the mock closes one (its connection cap closes the
 * oldest idle ones; its headers timeout the slowest). The traffic must meet no unexpected answer.
 *
 * @example
 * const flood = startSlowFlood(url, 2_000)
 * // … traffic …
 * const result = await flood.stop()
 */
export function startSlowFlood(url: string, count: number): { stop(): Promise<FloodResult> } {
  const { hostname, port } = new URL(url)
  const sockets = new Set<Socket>()
  let opened = 0
  let closedByMock = 0
  let stopping = false
  const open = (): void => {
    if (stopping) return
    opened++
    const socket = connect(Number(port), hostname)
    sockets.add(socket)
    socket.on('error', () => undefined)
    socket.once('connect', () => socket.write('GET /api/users/me HTTP/1.1\r\nHost: localhost\r\nX-Slow: '))
    socket.once('close', () => {
      sockets.delete(socket)
      if (stopping) return
      closedByMock++
      // Not at once: a closed slow client comes back, as a real one would, a moment later.
      setTimeout(open, 100)
    })
  }
  // Opened in batches, so that the flood builds up beside the traffic rather than before it.
  let started = 0
  const builder = setInterval(() => {
    for (let batch = 0; batch < 200 && started < count; batch++, started++) open()
    if (started >= count) clearInterval(builder)
  }, 100)
  const trickle = setInterval(() => {
    for (const socket of sockets) if (socket.writable) socket.write('x')
  }, 1_000)
  return {
    async stop() {
      stopping = true
      clearInterval(builder)
      clearInterval(trickle)
      const heldAtEnd = sockets.size
      for (const socket of sockets) socket.destroy()
      return { target: count, opened, closedByMock, heldAtEnd }
    },
  }
}
