import { Agent } from 'node:http'
import { connect, type Socket } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { BODY_TIMEOUT_MS } from '../../src/http/body-timeout.js'
import { MAX_CONNECTIONS } from '../../src/http/connection-guard.js'
import { startProxy, type RunningProxy } from '../../src/proxy/start-proxy.js'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'
import { buildCliOnce, killRunningClis, startCli } from '../support/cli-mock-process.js'
import { renameOnAgent } from '../support/kept-alive-patch.js'

// Issue 36: 600 connections sending a body one byte at a time got 235 of 2,000 ordinary PATCHes reset (the
// cap closed the oldest connection that had not sent its head yet: a normal client's, just opened), and
// through the proxy they held every connection to the upstream while the PATCHes queued behind them. A
// body that stalls is dropped after BODY_TIMEOUT_MS without a byte; one that trickles is slowest, and goes
// first when there are too many.

const floods: Array<{ stop(): void }> = []
const proxies: RunningProxy[] = []
const mocks: RunningMock[] = []

beforeAll(buildCliOnce, 120_000)

afterEach(async () => {
  for (const flood of floods.splice(0)) flood.stop()
  for (const proxy of proxies.splice(0)) await proxy.close()
  for (const mock of mocks.splice(0)) await mock.close()
  killRunningClis()
})

afterAll(killRunningClis)

/**
 * `count` connections, each sending a PATCH's head and then its body one byte every 200 ms, opened again
 * 100 ms after the server closes one (as a flood does): how many it opened.
 */
function floodWithSlowBodies(url: string, id: string, count: number): { opened(): number; stop(): void } {
  const { hostname, port } = new URL(url)
  const sockets = new Set<Socket>()
  let opened = 0
  let stopped = false
  const head =
    `PATCH /api/users/${id} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer owner-token\r\n` +
    'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{'
  const open = (): void => {
    if (stopped) return
    opened += 1
    const socket = connect(Number(port), hostname)
    sockets.add(socket)
    socket.on('error', () => undefined)
    socket.once('connect', () => socket.write(head))
    socket.once('close', () => {
      sockets.delete(socket)
      setTimeout(open, 100)
    })
  }
  for (let index = 0; index < count; index += 1) open()
  const trickle = setInterval(() => {
    for (const socket of sockets) if (socket.writable) socket.write(' ')
  }, 200)
  const flood = {
    opened: () => opened,
    stop() {
      stopped = true
      clearInterval(trickle)
      for (const socket of sockets) socket.destroy()
    },
  }
  floods.push(flood)
  return flood
}

/** 2,000 renames on four kept-alive connections: the statuses (or error codes) that were not 200. */
async function renameTwoThousandTimes(url: string, ids: string[]): Promise<Array<number | string>> {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 })
  try {
    const outcomes = await Promise.all(
      Array.from({ length: 2_000 }, (_, index) =>
        renameOnAgent(url, agent, ids[index % ids.length] ?? '', `Name ${index}`),
      ),
    )
    return outcomes.filter((outcome) => outcome !== 200)
  } finally {
    agent.destroy()
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('600 connections sending bodies one byte at a time, beside a normal client', () => {
  test('the mock (the CLI): every one of 2,000 PATCHes on kept-alive connections is answered 200', async () => {
    const { url } = await startCli(['--quiet'])
    const target = (await (await fetch(`${url}/__mock/target?disposable=5`, { method: 'POST' })).json()) as {
      disposable: Array<{ id: string }>
    }
    const [slow, ...renamed] = target.disposable.map((user) => user.id)
    const flood = floodWithSlowBodies(url, slow ?? '', 600)
    await pause(500)
    const failed = await renameTwoThousandTimes(url, renamed)
    expect(flood.opened()).toBeGreaterThan(600) // the cap closed some, which came back
    expect(failed, `${failed.length} of 2,000 PATCHes failed: ${[...new Set(failed)].join(', ')}`).toEqual([])
  }, 90_000)

  test('the proxy: every PATCH is answered 200, and the slow bodies hold no connection to the upstream', async () => {
    const mock = await startMock({ users: 2, disposable: 5 })
    mocks.push(mock)
    const proxy = await startProxy({ upstream: mock.url, port: 0 })
    proxies.push(proxy)
    const [slow, ...renamed] = mock.target.disposable.map((user) => user.id)
    floodWithSlowBodies(proxy.url, slow ?? '', 600)
    await pause(1_000)
    // What reaches the upstream is whole bodies (or their first 16 KiB), not a trickle: the upstream's pool
    // stays free for the requests that are ready.
    const upstreamConnections = await new Promise<number>((resolve, reject) =>
      mock.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    )
    expect(upstreamConnections).toBeLessThan(16)
    const failed = await renameTwoThousandTimes(proxy.url, renamed)
    expect(failed, `${failed.length} of 2,000 PATCHes failed: ${[...new Set(failed)].join(', ')}`).toEqual([])
  }, 90_000)
})

describe(`a body that stalls for ${BODY_TIMEOUT_MS / 1000} s is dropped; one that trickles is not`, () => {
  /** Sends a PATCH head and `{`, then a byte every `everyMs` (never, without): when the server answered or closed. */
  function sendBodySlowly(url: string, id: string, everyMs?: number) {
    const { hostname, port } = new URL(url)
    const socket = connect(Number(port), hostname)
    socket.on('error', () => undefined)
    const body = JSON.stringify({ name: 'Slow But Steady' })
    const started = performance.now()
    let sent = 1
    let received = ''
    socket.once('connect', () => {
      socket.write(
        `PATCH /api/users/${id} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer owner-token\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n{`,
      )
    })
    const timer =
      everyMs === undefined
        ? undefined
        : setInterval(() => {
            if (sent < body.length) socket.write(body[sent++] ?? '')
          }, everyMs)
    return new Promise<{ status: string; afterMs: number }>((resolve) => {
      const done = () => {
        clearInterval(timer)
        resolve({ status: /^HTTP\/1\.1 (\d+)/.exec(received)?.[1] ?? 'closed', afterMs: performance.now() - started })
        socket.destroy()
      }
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString()
        if (/\r\n\r\n/.test(received)) done()
      })
      socket.on('close', done)
    })
  }

  test('the mock and the proxy: the stalled body gets a 400 or 408 and its connection closed; the trickle its 200', async () => {
    const mock = await startMock({ users: 2, disposable: 2 })
    mocks.push(mock)
    const proxy = await startProxy({ upstream: mock.url, port: 0, timeoutMs: 60_000 })
    proxies.push(proxy)
    const [first, second] = mock.target.disposable.map((user) => user.id)
    // The trickle sends its 27 bytes over 26 × 600 ms, past the timeout, but never waits that long for a byte.
    const [stalled, proxyStalled, trickled] = await Promise.all([
      sendBodySlowly(mock.url, first ?? ''),
      sendBodySlowly(proxy.url, first ?? ''),
      sendBodySlowly(mock.url, second ?? '', 600),
    ])
    expect(stalled.status).toBe('400')
    expect(proxyStalled.status).toBe('408')
    for (const dropped of [stalled, proxyStalled]) {
      // Not before the timeout (timers never fire early); within it and a few seconds of a busy machine.
      expect(dropped.afterMs).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS - 50)
      expect(dropped.afterMs).toBeLessThan(BODY_TIMEOUT_MS + 5_000)
    }
    expect(trickled.status).toBe('200')
    expect(trickled.afterMs).toBeGreaterThan(BODY_TIMEOUT_MS)
  }, 60_000)
})

test(`the proxy holds at most ${MAX_CONNECTIONS} connections too, and a fresh client is served`, async () => {
  const mock = await startMock({ users: 2, disposable: 1 })
  mocks.push(mock)
  const proxy = await startProxy({ upstream: mock.url, port: 0 })
  proxies.push(proxy)
  const flood = floodWithSlowBodies(proxy.url, mock.target.disposable[0]?.id ?? '', MAX_CONNECTIONS + 200)
  await pause(1_500)
  // The proxy closed some (those come back 100 ms later): it held no more than its cap.
  expect(flood.opened()).toBeGreaterThan(MAX_CONNECTIONS + 200)
  const me = await fetch(`${proxy.url}/api/users/me`, {
    headers: { authorization: 'Bearer owner-token' },
    signal: AbortSignal.timeout(5_000),
  })
  expect(me.status).toBe(200)
}, 30_000)
