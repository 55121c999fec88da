import { createServer } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startProxy, type RunningProxy } from '../../src/proxy/start-proxy.js'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'

// Issue 36: a client that sends `Expect: 100-continue` waits to be asked for its body (RFC 9110 §10.1.1).
// One declared over what the route takes gets its refusal at once, never a 100 Continue that invites a
// billion bytes (node's default answer, which the mock and the proxy both gave); one within it is asked.

let mock: RunningMock
let proxy: RunningProxy

beforeAll(async () => {
  mock = await startMock({ users: 2, disposable: 2 })
  proxy = await startProxy({ upstream: mock.url, port: 0 })
})

afterAll(async () => {
  await proxy.close()
  await mock.close()
})

interface Conversation {
  /** The status line of the first answer the server wrote. */
  first: string
  /** The final answer's head, after a 100 Continue and the body. */
  final?: string
  /** Whether the server closed the connection after its final answer (within the wait). */
  closed: boolean
}

/**
 * Sends `head` on a fresh connection, and `body` only once a 100 Continue came: what the server wrote,
 * and whether it closed the connection within two seconds of its final answer (within 5 s in all).
 */
function converse(url: string, head: string, body?: string): Promise<Conversation> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname)
    let received = ''
    const heads = (): string[] =>
      [...received.matchAll(/HTTP\/1\.1 [^\r]*\r\n(?:[^\r]+\r\n)*\r\n/g)].map((match) => match[0])
    const end = (closed: boolean): void => {
      clearTimeout(timer)
      socket.destroy()
      const [first, ...rest] = heads()
      if (first === undefined) return reject(new Error(`No answer; received ${JSON.stringify(received)}`))
      const final = first.startsWith('HTTP/1.1 100') ? rest[0] : undefined
      resolve({ first, ...(final === undefined ? {} : { final }), closed })
    }
    let timer = setTimeout(() => end(false), 5_000)
    socket.on('error', () => undefined)
    socket.on('data', (chunk: Buffer) => {
      const before = heads().length
      received += chunk.toString('latin1')
      const all = heads()
      if (all.length === before) return
      const asked = all[all.length - 1]?.startsWith('HTTP/1.1 100') === true
      if (body !== undefined && asked) socket.write(body)
      if (body !== undefined && !asked) return end(false)
      // Once an answer came, two seconds at most for what follows it: the final answer, or the close.
      clearTimeout(timer)
      timer = setTimeout(() => end(false), 2_000)
    })
    socket.on('close', () => end(true))
    socket.write(head)
  })
}

function request(method: string, path: string, headers: Record<string, string>): string {
  const lines = Object.entries({ host: '127.0.0.1', expect: '100-continue', ...headers }).map(
    ([name, value]) => `${name}: ${value}\r\n`,
  )
  return `${method} ${path} HTTP/1.1\r\n${lines.join('')}\r\n`
}

const OWNER = { authorization: 'Bearer owner-token', 'content-type': 'application/json' }
const A_BILLION = String(1_000_000_000)
const RENAME = JSON.stringify({ name: 'Asked For' })

describe.each([
  ['the mock', () => mock.url],
  ['the proxy in front of it', () => proxy.url],
])('Expect: 100-continue, %s', (_name, url) => {
  const user = () => `/api/users/${mock.target.disposable[0]?.id}`

  test('a PATCH declaring a billion bytes: 413 at once, no 100 Continue, and the connection closed', async () => {
    const answer = await converse(url(), request('PATCH', user(), { ...OWNER, 'content-length': A_BILLION }))
    expect(answer.first).toMatch(/^HTTP\/1\.1 413 /)
    expect(answer.first).toMatch(/content-type: application\/problem\+json/i)
    expect(answer.first).not.toMatch(/x-users-api-kit-proxy/i)
    expect(answer.closed).toBe(true)
  })

  test("the same without a token: 401 at once (the contract's order: authentication before size)", async () => {
    const anonymous = { 'content-type': 'application/json', 'content-length': A_BILLION }
    const answer = await converse(url(), request('PATCH', user(), anonymous))
    expect(answer.first).toMatch(/^HTTP\/1\.1 401 /)
    expect(answer.closed).toBe(true)
  })

  test('a PATCH within 16 KiB is asked for its body: 100 Continue, then 200', async () => {
    const head = request('PATCH', user(), { ...OWNER, 'content-length': String(Buffer.byteLength(RENAME)) })
    const answer = await converse(url(), head, RENAME)
    expect(answer.first).toMatch(/^HTTP\/1\.1 100 /)
    expect(answer.final).toMatch(/^HTTP\/1\.1 200 /)
  })
})

describe('Expect: 100-continue on the control routes, each at its own limit', () => {
  test.each([
    ['PUT /__mock/state of a billion bytes', 'PUT', '/__mock/state', A_BILLION, /^HTTP\/1\.1 413 /],
    ['PUT /__mock/state of 1 MiB (it takes 64)', 'PUT', '/__mock/state', String(2 ** 20), /^HTTP\/1\.1 100 /],
    [
      'POST /__mock/webhooks of 17 KiB (it takes 16)',
      'POST',
      '/__mock/webhooks',
      String(17 * 1024),
      /^HTTP\/1\.1 413 /,
    ],
  ])('%s', async (_name, method, path, length, expected) => {
    const answer = await converse(
      mock.url,
      request(method, path, { 'content-type': 'application/json', 'content-length': length }),
    )
    expect(answer.first).toMatch(expected)
  })
})

describe('Expect: 100-continue through the proxy: the upstream decides', () => {
  test("the mock's 413 to a declared billion bytes is judged the client's mistake, not the mock's", async () => {
    const path = `/api/users/${mock.target.disposable[1]?.id}`
    await converse(proxy.url, request('PATCH', path, { ...OWNER, 'content-length': A_BILLION }))
    await proxy.settled()
    const entries = proxy.log.recent().filter((entry) => entry.report.includes(path))
    expect(entries.map((entry) => [entry.kind, entry.check])).toEqual([['client', 'client-request']])
    expect(entries[0]?.message).toContain('a body of 1000000000 bytes')
  })

  test('an upstream that asks for a body over 16 KiB: its 100 Continue reaches the client, then its answer', async () => {
    // node's default: every body is asked for, and this one is read whole.
    const upstream = createServer((incoming, outgoing) => {
      let bytes = 0
      incoming.on('data', (chunk: Buffer) => (bytes += chunk.byteLength))
      incoming.on('end', () => outgoing.writeHead(200, { 'content-type': 'text/plain' }).end(`read ${bytes}`))
    })
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    const { port } = upstream.address() as AddressInfo
    const relaying = await startProxy({ upstream: `http://127.0.0.1:${port}`, port: 0 })
    try {
      const body = 'x'.repeat(20 * 1024)
      const answer = await converse(relaying.url, request('POST', '/upload', { 'content-length': '20480' }), body)
      expect(answer.first).toMatch(/^HTTP\/1\.1 100 /)
      expect(answer.final).toMatch(/^HTTP\/1\.1 200 /)
    } finally {
      await relaying.close()
      upstream.closeAllConnections()
      await new Promise((resolve) => upstream.close(resolve))
    }
  })
})
