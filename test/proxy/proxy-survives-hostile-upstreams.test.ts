import { request as httpRequest } from 'node:http'
import { afterEach, describe, expect, test } from 'vitest'
import type { FindingEntry } from '../../src/proxy/finding-entry.js'
import { startProxy, type ProxyOptions, type RunningProxy } from '../../src/proxy/start-proxy.js'
import {
  startBrokenChunksServer,
  startDeepNestingServer,
  startEchoingServer,
  startEndlessServer,
  startGarbageServer,
  startGzipBombServer,
  startHangingServer,
  startHugeBodyServer,
  startResettingServer,
  startTrickleServer,
  type HostileServer,
} from '../support/hostile-servers.js'

// Issue 23: hostile upstreams (huge, endless, gzip-bomb, slow, not HTTP) break neither the proxy nor its
// memory. The answer goes on to the client as it comes (or is cut at --request-timeout), the proxy's
// copy stops at --max-response-bytes, and what happened is reported, with the token masked.

const MiB = 1024 * 1024
/**
 * How much more the test process (hostile server, proxy and client together) may hold at its peak. A
 * copy kept whole would hold the gigabyte, or the 10 GiB a bomb inflates to; the rest is buffers the
 * next collection frees, which a busy machine lets pile up longer.
 */
const BOUNDED = 256 * MiB
let server: HostileServer | undefined
let proxy: RunningProxy | undefined

afterEach(async () => {
  await proxy?.close()
  await server?.close()
  proxy = undefined
  server = undefined
})

async function proxyFor(hostile: HostileServer, options: Partial<ProxyOptions> = {}): Promise<RunningProxy> {
  server = hostile
  proxy = await startProxy({ upstream: hostile.url, port: 0, timeoutMs: 2_000, ...options })
  return proxy
}

interface Read {
  status: number
  headers: Record<string, string | string[] | undefined>
  bytes: number
  /** How the body ended: whole, or cut by the proxy (the upstream's answer did not end in time). */
  ended: 'whole' | 'cut'
  text: string
}

/** GET /api/users/me through the proxy, counting the bytes as they come (compressed ones as they are). */
function read(base: string, token = 'owner-token'): Promise<Read> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: hostname, port, path: '/api/users/me', headers: { authorization: `Bearer ${token}` }, agent: false },
      (response) => {
        let bytes = 0
        let head = ''
        const done = (ended: Read['ended']): void =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, bytes, ended, text: head })
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.byteLength
          if (head.length < 2048) head += chunk.toString('latin1')
        })
        response.on('end', () => done('whole'))
        response.on('error', () => done('cut'))
        response.on('aborted', () => done('cut'))
      },
    )
    outgoing.on('error', reject)
    outgoing.end()
  })
}

/** The one finding the exchange gave, once judged. */
async function findingOf(running: RunningProxy): Promise<FindingEntry> {
  await running.settled()
  const found = running.log.recent().filter((entry) => entry.kind !== 'client')
  expect(found).toHaveLength(1)
  return found[0] as FindingEntry
}

/** How much more memory the process holds after `run` than before it (after a collection, if exposed). */
async function growthDuring(run: () => Promise<unknown>): Promise<number> {
  const collect = (globalThis as { gc?: () => void }).gc
  collect?.()
  const before = process.memoryUsage().rss
  let peak = before
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20)
  try {
    await run()
  } finally {
    clearInterval(sampler)
  }
  return Math.max(peak, process.memoryUsage().rss) - before
}

describe('the proxy in front of a hostile upstream', { timeout: 60_000 }, () => {
  test('a 1 GiB answer goes to the client whole; its copy stops at 1 MiB: not checked', async () => {
    const running = await proxyFor(await startHugeBodyServer(), { timeoutMs: 50_000 })
    let answer: Read | undefined
    const growth = await growthDuring(async () => (answer = await read(running.url)))
    expect(answer?.bytes).toBe(1024 * MiB)
    expect(answer?.ended).toBe('whole')
    const finding = await findingOf(running)
    expect(finding.kind).toBe('unchecked')
    expect(finding.message).toContain('over 1 MiB')
    expect(growth).toBeLessThan(BOUNDED)
  })

  test('an endless answer is cut at --request-timeout and reported; memory stays put', async () => {
    const running = await proxyFor(await startEndlessServer())
    let answer: Read | undefined
    const growth = await growthDuring(async () => (answer = await read(running.url)))
    expect(answer?.ended).toBe('cut')
    expect(answer?.bytes).toBeGreaterThan(1 * MiB)
    const finding = await findingOf(running)
    expect(finding.check).toBe('server-answers')
    expect(finding.message).toContain('no complete response within 2000 ms')
    expect(growth).toBeLessThan(BOUNDED)
  })

  test('a gzip bomb is forwarded compressed; the proxy inflates no more than 1 MiB of it', async () => {
    const running = await proxyFor(await startGzipBombServer(), { timeoutMs: 4_000 })
    let answer: Read | undefined
    const growth = await growthDuring(async () => (answer = await read(running.url)))
    expect(answer?.headers['content-encoding']).toBe('gzip')
    expect(answer?.bytes).toBeGreaterThan(0)
    await running.settled()
    // Cut by the deadline (10 GiB take long to make) or read whole: either way, never inflated past the limit.
    expect(running.log.recent().map((entry) => entry.check)).toEqual([
      expect.stringMatching(/^(server-answers|not-checked)$/),
    ])
    expect(growth).toBeLessThan(BOUNDED)
  })

  test('a trickle is cut at --request-timeout, its status already sent', async () => {
    const running = await proxyFor(await startTrickleServer(100))
    const answer = await read(running.url)
    expect(answer.status).toBe(200)
    expect(answer.ended).toBe('cut')
    expect((await findingOf(running)).message).toContain('the body was still arriving')
  })

  test("a server that never answers gets the proxy's own 504, marked as the proxy's", async () => {
    const running = await proxyFor(await startHangingServer())
    const answer = await read(running.url)
    expect(answer.status).toBe(504)
    expect(answer.headers['x-users-api-kit-proxy']).toContain('not by the upstream')
    expect((await findingOf(running)).message).toContain('no response within 2000 ms')
  })

  test.each([
    ['a reset connection', startResettingServer, /ECONNRESET|closed the connection/],
    ['bytes that are not HTTP', startGarbageServer, /not HTTP/],
  ])("%s is the proxy's own 502 and a finding", async (_name, start, reason) => {
    const running = await proxyFor(await start())
    expect((await read(running.url)).status).toBe(502)
    expect((await findingOf(running)).message).toMatch(reason)
  })

  test.each([
    ['in the packet of its head', undefined],
    ['after its head and a first chunk', 200],
  ])(
    "chunked framing broken %s: the client gets the upstream's head and a cut body, and a finding",
    async (_name, pauseMs) => {
      const running = await proxyFor(await startBrokenChunksServer(pauseMs))
      const answer = await read(running.url)
      expect([answer.status, answer.ended]).toEqual([200, 'cut'])
      expect(answer.headers['content-type']).toBe('application/json')
      expect((await findingOf(running)).message).toMatch(/not HTTP \(HPE_INVALID_CHUNK_SIZE/)
    },
  )

  test('JSON nested 100,000 deep is forwarded, not parsed: not checked', async () => {
    const running = await proxyFor(await startDeepNestingServer())
    const answer = await read(running.url)
    expect(answer.bytes).toBe(200_000)
    const finding = await findingOf(running)
    expect(finding.kind).toBe('unchecked')
    expect(finding.message).toContain('nested deeper than 64 levels')
  })

  test('a token a server echoes is masked in the finding, its report and its curl', async () => {
    const running = await proxyFor(await startEchoingServer())
    expect((await read(running.url, 'secret-owner-token')).text).toContain('secret-owner-token')
    await running.settled()
    const shown = JSON.stringify(running.log.recent())
    expect(shown).not.toContain('secret-owner-token')
    expect(shown).toContain('Bearer ***')
    expect(running.log.counts.violations).toBeGreaterThan(0)
  })
})
