import type { LookupAddress } from 'node:dns'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { startMock, type RunningMock, type StartMockOptions } from '../../src/server/start-mock.js'
import { createWebhookHosts, type ResolveHost } from '../../src/server/webhook-hosts.js'
import { startReceiver } from '../support/test-receiver.js'

// docs/mock.md, "Sharing a mock": anyone who reaches the control routes (no token on loopback; anyone on
// the network when bound to 0.0.0.0 without --control-token) could subscribe an endpoint anywhere, and one
// PATCH made the mock POST there, with retries. Now: loopback by default, other hosts only when named.
// Every address here is refused before anything is sent; what is sent goes to 127.0.0.1.

const cleanups: Array<() => Promise<unknown> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function mockWith(options: StartMockOptions = {}): Promise<RunningMock> {
  const mock = await startMock({ users: 2, webhooks: { retryDelaysMs: [10, 20, 40] }, ...options })
  cleanups.push(() => mock.close())
  return mock
}

function subscribe(mock: RunningMock, url: string, headers: Record<string, string> = {}) {
  return fetch(`${mock.url}/__mock/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ url }),
  })
}

async function patchSomeone(mock: RunningMock): Promise<void> {
  const response = await fetch(`${mock.url}/api/users/${mock.target.disposable[0]?.id}`, {
    method: 'PATCH',
    headers: { authorization: 'Bearer owner-token', 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Renamed ${Math.random().toString(36).slice(2, 8)}` }),
  })
  expect(response.status).toBe(200)
}

describe('POST /__mock/webhooks', () => {
  test.each([
    ['a cloud metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ['a private address', 'http://10.0.0.1:8080/hooks'],
    ['a home router', 'http://192.168.1.1/'],
    ['a private IPv6 address', 'http://[fd00::1]/hooks'],
    ['the unspecified address', 'http://0.0.0.0:9/'],
    ['an IPv4-mapped private address', 'http://[::ffff:10.0.0.1]/'],
  ])('refuses %s (%s): 403 naming the flag, and nothing is subscribed', async (_label, url) => {
    const mock = await mockWith()
    const response = await subscribe(mock, url)
    expect(response.status).toBe(403)
    expect(((await response.json()) as { detail: string }).detail).toContain('--webhook-allow-host')
    expect(mock.mock.webhooks.endpoints()).toEqual([])
  })

  test('takes loopback endpoints by address and by name, and delivers to them', async () => {
    const mock = await mockWith()
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    const { port } = new URL(receiver.url)
    for (const url of [receiver.url, `http://localhost:${port}/hooks`, 'http://127.1.2.3:9/', 'http://[::1]:9/']) {
      expect((await subscribe(mock, url)).status).toBe(201)
    }
    await patchSomeone(mock)
    await receiver.until(2)
  })

  test('takes the hosts --webhook-allow-host names, without asking DNS', async () => {
    const mock = await mockWith({ webhookAllowHosts: ['hooks.example.invalid', '10.0.0.7'] })
    expect((await subscribe(mock, 'https://hooks.example.invalid/in')).status).toBe(201)
    expect((await subscribe(mock, 'http://10.0.0.7/in')).status).toBe(201)
    expect((await subscribe(mock, 'http://10.0.0.8/in')).status).toBe(403)
  })

  test('needs the control token when the mock has one', async () => {
    const mock = await mockWith({ controlToken: 'the-control-token' })
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    expect((await subscribe(mock, receiver.url)).status).toBe(401)
    expect((await subscribe(mock, receiver.url, { authorization: 'Bearer owner-token' })).status).toBe(401)
    expect((await subscribe(mock, receiver.url, { authorization: 'Bearer the-control-token' })).status).toBe(201)
  })
})

describe('deliveries', () => {
  test('an endpoint subscribed in code at a private address gets nothing: each attempt is logged as not sent', async () => {
    const mock = await mockWith()
    // TEST-NET-2: refused before any packet leaves.
    mock.mock.webhooks.subscribe({ url: 'http://198.51.100.7/hooks' })
    await patchSomeone(mock)
    await mock.mock.webhooks.idle()
    const [delivery] = mock.mock.webhooks.events()[0]?.deliveries ?? []
    expect(delivery?.state).toBe('failed')
    expect(delivery?.attempts.length).toBe(4)
    expect(delivery?.attempts.every((attempt) => /no loopback address/.test(attempt.error ?? ''))).toBe(true)
  })

  test('a name that resolved to loopback at subscription and elsewhere at delivery is not sent to (DNS rebinding)', async () => {
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    const answers: string[][] = [['127.0.0.1'], ['198.51.100.7']]
    const rebinding: ResolveHost = (_host, _options, callback) => {
      const addresses = answers.length > 1 ? (answers.shift() as string[]) : (answers[0] as string[])
      callback(
        null,
        addresses.map((address): LookupAddress => ({ address, family: 4 })),
      )
    }
    const hosts = createWebhookHosts([], rebinding)
    cleanups.push(() => hosts.close())
    const url = `http://rebound.test:${new URL(receiver.url).port}/hooks`
    await hosts.assertAllowed(url)
    const sent = hosts.send(url, { headers: {}, body: '{}', signal: AbortSignal.timeout(2_000) })
    await expect(sent).rejects.toThrow(/198\.51\.100\.7.*no loopback address/)
    expect(receiver.received).toHaveLength(0)
  })

  test('a redirect is an answer, never followed', async () => {
    const elsewhere = await countingServer(() => [200, {}])
    const redirecting = await countingServer(() => [307, { location: `${elsewhere.url}/stolen` }])
    const hosts = createWebhookHosts()
    cleanups.push(() => hosts.close())
    const status = await hosts.send(`${redirecting.url}/hooks`, {
      headers: {},
      body: '{}',
      signal: AbortSignal.timeout(2_000),
    })
    expect(status).toBe(307)
    expect(elsewhere.hits).toEqual([])
  })

  test('a kept-alive connection carries many deliveries, checked once when it connected, and nothing piles up on it', async () => {
    const receiver = await countingServer(() => [204, {}])
    const hosts = createWebhookHosts()
    cleanups.push(() => hosts.close())
    const warnings: string[] = []
    const onWarning = (warning: Error): number => warnings.push(`${warning.name}: ${warning.message}`)
    process.on('warning', onWarning)
    cleanups.push(() => void process.off('warning', onWarning))
    for (let delivery = 0; delivery < 25; delivery += 1) {
      const status = await hosts.send(`${receiver.url}/hooks`, {
        headers: {},
        body: '{}',
        signal: AbortSignal.timeout(2_000),
      })
      expect(status).toBe(204)
    }
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve))
    expect(receiver.hits).toHaveLength(25)
    expect(receiver.connections()).toBeLessThan(25)
    expect(warnings).toEqual([])
  })
})

/** A server on 127.0.0.1 that answers every request as told and counts them. */
async function countingServer(
  answer: () => [number, Record<string, string>],
): Promise<{ url: string; hits: string[]; connections: () => number }> {
  const hits: string[] = []
  let connections = 0
  const server: Server = createServer((incoming, outgoing) => {
    hits.push(incoming.url ?? '')
    const [status, headers] = answer()
    outgoing.writeHead(status, headers).end()
  })
  server.on('connection', () => (connections += 1))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(() => {
    server.closeAllConnections()
    server.close()
  })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, connections: () => connections }
}
