import { readFileSync } from 'node:fs'
import { Agent, createServer } from 'node:http'
import { connect, type Socket } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { guardConnections, MAX_CONNECTIONS, MAX_EVENT_STREAMS } from '../../src/http/connection-guard.js'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'
import { buildCliOnce, killRunningClis, startCli } from '../support/cli-mock-process.js'
import { renameOnAgent } from '../support/kept-alive-patch.js'

// docs/decisions/0010: every kind of connection counts toward the cap, event streams have their own, and
// a reader that does not read is dropped. Before, 16,860 event streams, slow bodies and delayed requests
// were held past the 512-connection cap, and a flood of streams reset a normal client's PATCHes.

const sockets: Socket[] = []
const mocks: RunningMock[] = []

beforeAll(buildCliOnce, 120_000)

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  for (const mock of mocks.splice(0)) await mock.close()
  killRunningClis()
})

afterAll(killRunningClis)

/** Raw connections, each sending `head` (and nothing more): they stay as the test leaves them. */
async function open(url: string, count: number, head: string, reads = true): Promise<Socket[]> {
  const { hostname, port } = new URL(url)
  const opened: Socket[] = []
  for (let batch = 0; batch < count; batch += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, count - batch) }, () => {
        const socket = connect(Number(port), hostname)
        socket.on('error', () => undefined)
        sockets.push(socket)
        opened.push(socket)
        return new Promise<void>((resolve) =>
          socket.once('connect', () => {
            socket.write(head)
            if (reads) socket.resume()
            else socket.pause()
            resolve()
          }),
        )
      }),
    )
  }
  return opened
}

const STREAM = 'GET /__mock/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n'
const SLOW_BODY =
  'PATCH /api/users/usr_x HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer owner-token\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{'
const DELAYED =
  'GET /api/users/me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer owner-token\r\nPrefer: delay=60000\r\n\r\n'

function openConnections(mock: RunningMock): Promise<number> {
  return new Promise((resolve, reject) =>
    mock.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  )
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function isOpen(socket: Socket): boolean {
  return !socket.destroyed && !socket.readableEnded
}

describe('every kind of connection counts toward the cap', () => {
  test(`${MAX_CONNECTIONS + 88} connections holding event streams, slow bodies and delayed requests: at most ${MAX_CONNECTIONS} stay open, and a fresh client is served`, async () => {
    const mock = await startMock({ users: 2 })
    mocks.push(mock)
    const third = Math.ceil((MAX_CONNECTIONS + 88) / 3)
    await open(mock.url, third, STREAM)
    await open(mock.url, third, SLOW_BODY)
    await open(mock.url, third, DELAYED)
    await pause(300)
    expect(await openConnections(mock)).toBeLessThanOrEqual(MAX_CONNECTIONS)
    const started = performance.now()
    const response = await fetch(`${mock.url}/api/users/me`, {
      headers: { authorization: 'Bearer owner-token' },
      signal: AbortSignal.timeout(5_000),
    })
    expect(response.status).toBe(200)
    expect(performance.now() - started).toBeLessThan(2_000)
  }, 30_000)

  test(`600 event streams asked for: at most ${MAX_EVENT_STREAMS} are held, and a reader that comes after them gets its events`, async () => {
    const mock = await startMock({ users: 2 })
    mocks.push(mock)
    const streams = await open(mock.url, 600, STREAM)
    // The refused ones are closed as the mock gets to them: waited for (at most 10 s), not for a fixed time.
    for (let waited = 0; waited < 10_000 && streams.filter(isOpen).length > MAX_EVENT_STREAMS; waited += 50)
      await pause(50)
    expect(streams.filter(isOpen).length).toBeLessThanOrEqual(MAX_EVENT_STREAMS)
    const [reader] = await open(mock.url, 1, STREAM)
    let received = ''
    reader?.on('data', (chunk: Buffer) => (received += chunk.toString()))
    await pause(100)
    await fetch(`${mock.url}/api/users/${mock.target.disposable[0]?.id}`, {
      method: 'PATCH',
      headers: { authorization: 'Bearer owner-token', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Streamed Name' }),
    })
    await pause(200)
    expect(received).toContain('Streamed Name')
  }, 30_000)
})

describe('which connection goes when there are too many', () => {
  test('a connection idle after its answer goes before an older one still being answered', async () => {
    const server = createServer((request, response) => {
      if (request.url !== '/slow') response.end('ok')
    })
    guardConnections(server, { maxConnections: 3 })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as { port: number }
    try {
      const url = `http://127.0.0.1:${port}`
      const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`
      const [answering] = await open(url, 1, get('/slow'))
      const [firstIdle] = await open(url, 1, get('/'))
      const [secondIdle] = await open(url, 1, get('/'))
      await pause(200)
      await open(url, 1, get('/'))
      await pause(200)
      expect([answering, firstIdle, secondIdle].map((socket) => socket !== undefined && isOpen(socket))).toEqual([
        true,
        false,
        true,
      ])
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe('a flood of event streams beside a normal client (the CLI)', () => {
  test('600 event streams held, and more opened, while a client sends 2,000 PATCHes on kept-alive connections: every PATCH is answered', async () => {
    const { url } = await startCli(['--quiet'])
    const target = (await (await fetch(`${url}/__mock/target?disposable=4`, { method: 'POST' })).json()) as {
      disposable: Array<{ id: string }>
    }
    await open(url, 600, STREAM)
    let patching = true
    const flood = (async () => {
      while (patching) await open(url, 50, STREAM)
    })()
    const agent = new Agent({ keepAlive: true, maxSockets: 4 })
    const outcomes = await Promise.all(
      Array.from({ length: 2_000 }, (_, index) =>
        renameOnAgent(url, agent, target.disposable[index % 4]?.id ?? '', `Name ${index}`),
      ),
    )
    patching = false
    await flood
    agent.destroy()
    const failed = outcomes.filter((outcome) => outcome !== 200)
    expect(failed, `${failed.length} of 2,000 PATCHes failed: ${[...new Set(failed)].join(', ')}`).toEqual([])
  }, 60_000)

  test(`400 event streams whose readers never read, while events flow: the mock stays within 100 MiB of its resting RSS`, async () => {
    const { url, cli } = await startCli(['--quiet'])
    const pid = cli.pid as number
    // 100 endpoints that refuse: each event then has 100 deliveries, each attempt an update on every stream.
    for (let index = 0; index < 100; index += 1) {
      await fetch(`${url}/__mock/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `http://127.0.0.1:1/refused-${index}` }),
      })
    }
    const target = (await (await fetch(`${url}/__mock/target?disposable=1`, { method: 'POST' })).json()) as {
      disposable: Array<{ id: string }>
    }
    const resting = rssOf(pid)
    await open(url, 400, STREAM, false)
    const agent = new Agent({ keepAlive: true, maxSockets: 4 })
    let peak = resting
    for (let round = 0; round < 40; round += 1) {
      await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          renameOnAgent(url, agent, target.disposable[0]?.id ?? '', `Round ${round} ${index} ${'x'.repeat(60)}`),
        ),
      )
      peak = Math.max(peak, rssOf(pid))
    }
    agent.destroy()
    const grew = (peak - resting) / 2 ** 20
    console.log(
      `400 readers that never read: RSS ${(resting / 2 ** 20).toFixed(0)} → peak ${(peak / 2 ** 20).toFixed(0)} MiB`,
    )
    expect(grew).toBeLessThan(100)
  }, 90_000)
})

/** The mock's resident memory, in bytes, from /proc. */
function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return Number(match?.[1] ?? 0) * 1024
}
