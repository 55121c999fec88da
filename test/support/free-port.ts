import { createServer } from 'node:net'

/**
 * Ports below the ephemeral ranges operating systems hand to outgoing connections and to `listen(0)`
 * (Linux 32768–60999, macOS and Windows 49152–65535): a port picked here and listened on a moment later
 * cannot have been taken meanwhile by a client socket, as an OS-picked one was once in CI (EADDRINUSE).
 */
const FIRST = 20_000
const LAST = 32_767

/** A port nothing listens on right now, outside the ephemeral ranges, released at once. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = FIRST + Math.floor(Math.random() * (LAST - FIRST + 1))
    if (await isFree(port)) return port
  }
  throw new Error(`No free port between ${FIRST} and ${LAST} in 50 tries.`)
}

function isFree(port: number): Promise<boolean> {
  const probe = createServer()
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
  })
}
