import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'
import { runVerify } from '../support/run-verify.js'

// On a mock, verify's webhook receiver subscribes itself through the control routes (autoSubscribe). Those
// requests go through the suite's client, as every other does: the answer is read within
// --max-response-bytes, and what is wrong with it is said. They were a bare fetch whose .json() read an
// endless answer for as long as the request's 10 s allowed.

/** Hands every request to the mock but POST /__mock/webhooks, which `answer` answers; counts its bytes. */
interface Front {
  url: string
  bytesAnswered(): number
  close(): Promise<void>
}

async function startFront(
  mock: RunningMock,
  answer: (response: ServerResponse, count: (bytes: number) => void) => void,
): Promise<Front> {
  let bytes = 0
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    if (incoming.method === 'POST' && incoming.url === '/__mock/webhooks') {
      incoming.resume()
      return answer(outgoing, (count) => (bytes += count))
    }
    const forwarded = request(new URL(incoming.url ?? '/', mock.url), {
      method: incoming.method,
      headers: incoming.headers,
    })
    forwarded.on('response', (answered) => {
      outgoing.writeHead(answered.statusCode ?? 502, answered.headers)
      answered.pipe(outgoing)
    })
    forwarded.on('error', () => outgoing.destroy())
    incoming.pipe(forwarded)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    bytesAnswered: () => bytes,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/** 64 KiB of JSON a chunk, without end, as fast as the client reads. */
function answerEndlessly(response: ServerResponse, count: (bytes: number) => void): void {
  const chunk = Buffer.from(`${' '.repeat(64 * 1024 - 1)}[`)
  response.writeHead(201, { 'content-type': 'application/json' })
  response.write('{"id":')
  const write = (): void => {
    while (!response.destroyed && response.write(chunk)) count(chunk.length)
    if (!response.destroyed) response.once('drain', write)
  }
  write()
}

let mock: RunningMock

beforeAll(async () => {
  mock = await startMock({ users: 8 })
})

afterAll(async () => {
  await mock.close()
})

describe("verify's subscription on a mock (autoSubscribe)", () => {
  test('answered without end: read to --max-response-bytes and no further, and said so', async () => {
    const front = await startFront(mock, answerEndlessly)
    try {
      const run = await runVerify({ ...mock.target, baseUrl: front.url }, ['--grep', 'webhooks', '--no-strict'])
      expect(run.exitCode, run.output).toBe(1)
      expect(run.output).toMatch(
        /"autoSubscribe": POST http:\/\/127\.0\.0\.1:\d+\/__mock\/webhooks answered 201 with a body over 1 MiB \(1048576 bytes\) after decompression/,
      )
      // The client stops at 1 MiB; what the socket's buffers took beyond it is a few MiB at most.
      expect(front.bytesAnswered()).toBeLessThan(16 * 1024 * 1024)
    } finally {
      await front.close()
    }
  }, 120_000)

  test('answered 404 (no mock): verify says to subscribe the receiver by hand', async () => {
    const front = await startFront(mock, (response) => {
      response.writeHead(404, { 'content-type': 'application/problem+json' })
      response.end(JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404 }))
    })
    try {
      const run = await runVerify({ ...mock.target, baseUrl: front.url }, ['--grep', 'webhooks', '--no-strict'])
      expect(run.exitCode, run.output).toBe(1)
      expect(run.output).toMatch(
        /"autoSubscribe": POST http:\/\/127\.0\.0\.1:\d+\/__mock\/webhooks answered 404: only a users-api-kit mock subscribes the receiver itself; for another backend, subscribe http:\/\/127\.0\.0\.1:\d+\/ there and drop autoSubscribe\./,
      )
    } finally {
      await front.close()
    }
  }, 120_000)
})
