import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { User } from '../../src/domain/user.js'

export interface Received {
  headers: IncomingHttpHeaders
  body: string
  at: number
}

/**
 * A webhook receiver for tests: answers each delivery with what `answer` says (a status, or `hang` to
 * never answer), and keeps what it got.
 */
export async function startReceiver(answer: (received: Received, index: number) => number | 'hang' = () => 204) {
  const received: Received[] = []
  const waiters: Array<{ count: number; resolve: () => void }> = []
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const delivery = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() }
      received.push(delivery)
      for (const waiter of waiters.filter((candidate) => received.length >= candidate.count)) waiter.resolve()
      const status = answer(delivery, received.length - 1)
      if (status !== 'hang') response.writeHead(status).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** Resolves once `count` deliveries came (or rejects after `timeoutMs`). */
    until(count: number, timeoutMs = 5_000): Promise<void> {
      if (received.length >= count) return Promise.resolve()
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${received.length} deliveries, not ${count}, within ${timeoutMs} ms`)),
          timeoutMs,
        )
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) })
      })
    },
    close(): Promise<void> {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

export interface TestPayload {
  type: string
  timestamp: string
  data: { user: User; changes?: string[]; actorId: string }
}

/** The payload of a delivery. */
export function payloadOf(received: Received): TestPayload {
  return JSON.parse(received.body) as TestPayload
}
