import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { MAX_CONNECTIONS } from '../../src/http/connection-guard.js'
import { buildCliOnce, killRunningClis, startCli } from '../support/cli-mock-process.js'

// Slow and idle sockets must not lock new clients out of the mock (file descriptors are finite), and
// an unauthenticated client must not hold a request with Prefer: delay.

beforeAll(buildCliOnce, 120_000)

afterAll(killRunningClis)

/** Opens `count` connections that send half a request line and then nothing. */
async function openSlowSockets(url: string, count: number): Promise<Socket[]> {
  const { hostname, port } = new URL(url)
  const sockets: Socket[] = []
  for (let batch = 0; batch < count; batch += 200) {
    const opened = Array.from({ length: Math.min(200, count - batch) }, () => {
      const socket = connect(Number(port), hostname)
      socket.on('error', () => undefined)
      sockets.push(socket)
      return new Promise<void>((resolve) =>
        socket.once('connect', () => {
          socket.write('GET /api/users/me HTTP/1.1\r\nHost: localhost\r\n')
          resolve()
        }),
      )
    })
    await Promise.all(opened)
  }
  return sockets
}

describe('a flood of slow connections', () => {
  test(`${MAX_CONNECTIONS * 4} slow sockets held open: a fresh client is still served`, async () => {
    const { url } = await startCli(['--quiet', '--port', '0'])
    const sockets = await openSlowSockets(url, MAX_CONNECTIONS * 4)
    try {
      const response = await fetch(`${url}/api/users/me`, {
        headers: { authorization: 'Bearer owner-token' },
        signal: AbortSignal.timeout(5_000),
      })
      expect(response.status).toBe(200)
      // The oldest slow sockets were closed to make room: at most the cap stay open.
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(sockets.filter((socket) => !socket.destroyed && !socket.readableEnded).length).toBeLessThanOrEqual(
        MAX_CONNECTIONS + 1,
      )
    } finally {
      for (const socket of sockets) socket.destroy()
    }
  }, 60_000)

  test('Prefer: delay does not hold an unauthenticated request: the 401 comes at once', async () => {
    const { url } = await startCli(['--quiet', '--port', '0'])
    const started = performance.now()
    const response = await fetch(`${url}/api/users/me`, { headers: { prefer: 'delay=10000' } })
    expect(response.status).toBe(401)
    expect(performance.now() - started).toBeLessThan(2_000)
  })
})
