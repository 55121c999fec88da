import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ContractClient } from '../../src/contract/client/contract-client.js'
import { createHttpTransport } from '../../src/http/http-client.js'
import { loadSpec } from '../../src/spec/load-spec.js'

// verify's client sends on node:http (src/http/http-client.ts), no longer on fetch, for half the CPU a
// request. What the suite relied on fetch for, it still gets (its Accept headers, a text/plain string
// body, decoded bodies, a deadline to the last byte), and where node:http would do otherwise (keep a stale
// connection, say ECONNRESET for a server that simply closed, wait on a 101) it does not: these servers,
// each written for one behaviour, hold it to that. Its deliberate differences: a User-Agent naming the
// kit, no browser headers (Accept-Language, Sec-Fetch-Mode), no raw deflate.

const servers: Array<{ close(): unknown }> = []

afterAll(() => {
  for (const server of servers) server.close()
})

async function listen<T extends Server | HttpServer>(server: T): Promise<string> {
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** An HTTP server that answers with `answer` and keeps each request's head. */
async function recordingServer(
  answer: (request: IncomingMessage) => { status?: number; headers?: Record<string, string>; body?: Buffer | string },
): Promise<{ url: string; heads: string[][] }> {
  const heads: string[][] = []
  const server = createHttpServer((request, response) => {
    heads.push(request.rawHeaders)
    request.resume()
    request.on('end', () => {
      const { status = 200, headers = {}, body = '' } = answer(request)
      response.writeHead(status, headers).end(body)
    })
  })
  return { url: `http://${await listen(server)}`, heads }
}

/** A TCP server that writes `reply(requestNumberOnThisConnection, socket)` for each request it reads. */
async function rawServer(
  reply: (requests: number, socket: Socket) => void,
): Promise<{ url: string; connections: () => number }> {
  let connections = 0
  const server = createNetServer((socket) => {
    connections += 1
    let requests = 0
    let buffered = ''
    socket.on('data', (data) => {
      buffered += data.toString('latin1')
      while (buffered.includes('\r\n\r\n')) {
        buffered = buffered.slice(buffered.indexOf('\r\n\r\n') + 4)
        requests += 1
        reply(requests, socket)
      }
    })
    socket.on('error', () => undefined)
  })
  return { url: `http://${await listen(server)}`, connections: () => connections }
}

async function clientFor(baseUrl: string): Promise<ContractClient> {
  return new ContractClient({ baseUrl, spec: await loadSpec(), checks: [], timeoutMs: 5_000 })
}

/** What the client says it received when a request got no answer. */
async function failureOf(send: Promise<unknown>): Promise<string> {
  const error = await send.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error, 'the request should have got no answer').toBeInstanceOf(Error)
  return (error as Error).message
}

function headerOf(rawHeaders: string[], name: string): string[] {
  return rawHeaders.filter((_, index) => index % 2 === 1 && rawHeaders[index - 1]?.toLowerCase() === name)
}

describe('what the client sends', () => {
  test("fetch's Accept and Accept-Encoding and a User-Agent, unless the check names its own; values trimmed", async () => {
    const server = await recordingServer(() => ({ body: '{}', headers: { 'content-type': 'application/json' } }))
    const client = await clientFor(server.url)
    await (await fetch(`${server.url}/`)).text()
    const byFetch = server.heads.shift() as string[]
    await client.sendOutsideTheApi({ path: '/api/users/me', token: 'tok' })
    await client.sendOutsideTheApi({
      path: '/x',
      headers: { Accept: 'application/json', authorization: 'Bearer \t tok \t' },
    })
    const [plain, own] = server.heads as [string[], string[]]
    expect(headerOf(plain, 'accept')).toEqual(headerOf(byFetch, 'accept'))
    expect(headerOf(plain, 'accept-encoding')).toEqual(headerOf(byFetch, 'accept-encoding'))
    expect(headerOf(plain, 'accept-encoding')).toEqual(['gzip, deflate'])
    expect(headerOf(plain, 'user-agent')).toEqual(['users-api-kit'])
    expect(headerOf(plain, 'authorization')).toEqual(['Bearer tok'])
    expect(headerOf(plain, 'content-length')).toEqual([])
    expect(headerOf(own, 'accept')).toEqual(['application/json'])
    expect(headerOf(own, 'authorization')).toEqual(['Bearer \t tok'])
  })

  test('a string body goes with its length, as text/plain when it names no type, with none under withoutContentType', async () => {
    const server = await recordingServer(() => ({ status: 204 }))
    const client = await clientFor(server.url)
    await client.sendOutsideTheApi({ method: 'PATCH', path: '/a', body: 'é' })
    await client.sendOutsideTheApi({ method: 'PATCH', path: '/a', body: 'é', withoutContentType: true })
    await client.sendOutsideTheApi({ method: 'PATCH', path: '/a', json: { name: 'Ada' } })
    await client.sendOutsideTheApi({ method: 'PATCH', path: '/a', body: '\xff', latin1: true })
    const [text, bare, json, latin1] = server.heads as [string[], string[], string[], string[]]
    expect([headerOf(text, 'content-type'), headerOf(text, 'content-length')]).toEqual([
      ['text/plain;charset=UTF-8'],
      ['2'],
    ])
    expect([headerOf(bare, 'content-type'), headerOf(bare, 'content-length')]).toEqual([[], ['2']])
    expect([headerOf(json, 'content-type'), headerOf(json, 'content-length')]).toEqual([['application/json'], ['14']])
    expect(headerOf(latin1, 'content-length')).toEqual(['1'])
  })
})

describe('what the client reads', () => {
  test('bodies in gzip, deflate, br and both at once are decoded; a coding it does not know comes as it was', async () => {
    const text = JSON.stringify({ data: ['é'.repeat(3000)] })
    const encoded: Record<string, Buffer> = {
      gzip: gzipSync(text),
      deflate: deflateSync(text),
      br: brotliCompressSync(text),
      'gzip, br': brotliCompressSync(gzipSync(text)),
      compress: Buffer.from('not what it claims'),
    }
    const server = await recordingServer((request) => {
      const coding = decodeURIComponent(request.url?.slice(1) ?? '')
      return { body: encoded[coding], headers: { 'content-type': 'application/json', 'content-encoding': coding } }
    })
    const client = await clientFor(server.url)
    for (const coding of ['gzip', 'deflate', 'br', 'gzip, br']) {
      const { response } = await client.sendOutsideTheApi({ path: `/${encodeURIComponent(coding)}` })
      expect([coding, response.text]).toEqual([coding, text])
      expect(response.headers['content-encoding']).toBe(coding)
    }
    const { response } = await client.sendOutsideTheApi({ path: '/compress' })
    expect(response.text).toBe('not what it claims')
  })

  test('a body cut before its checksum is read as far as it goes, as fetch reads it; over 5 codings come as they were', async () => {
    const text = '{"data":[]}'
    const gzip = gzipSync(text)
    const server = await recordingServer((request) =>
      request.url === '/cut'
        ? { body: gzip.subarray(0, gzip.length - 8), headers: { 'content-encoding': 'gzip' } }
        : { body: 'as sent', headers: { 'content-encoding': 'gzip, gzip, gzip, gzip, gzip, gzip' } },
    )
    const client = await clientFor(server.url)
    expect((await client.sendOutsideTheApi({ path: '/cut' })).response.text).toBe(text)
    expect((await client.sendOutsideTheApi({ path: '/six' })).response.text).toBe('as sent')
  })

  test('repeated headers are joined as fetch joins them', async () => {
    const server = await rawServer((_requests, socket) =>
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-A: 1\r\nx-a: 2\r\nContent-Length: 2\r\n\r\nok'),
    )
    const { response } = await (await clientFor(server.url)).sendOutsideTheApi({ path: '/' })
    expect([response.headers['x-a'], response.headers['content-type'], response.text]).toEqual([
      '1, 2',
      'text/plain',
      'ok',
    ])
  })

  test('a kept-alive connection the server closes as the request goes out: sent again on a new connection', async () => {
    // The race of a server's idle timeout, made certain: each connection answers its first request and
    // closes on its second without a word.
    const server = await rawServer((requests, socket) => {
      if (requests === 1) socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok')
      else socket.destroy()
    })
    const client = await clientFor(server.url)
    expect((await client.sendOutsideTheApi({ path: '/' })).response.text).toBe('ok')
    expect((await client.sendOutsideTheApi({ path: '/' })).response.text).toBe('ok')
    expect(server.connections()).toBe(2)
  })

  test('a PATCH on such a connection is not sent again: the server may have done it', async () => {
    let patches = 0
    const server = await rawServer((requests, socket) => {
      if (requests === 1) socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok')
      else {
        patches += 1
        socket.destroy()
      }
    })
    const client = await clientFor(server.url)
    await client.sendOutsideTheApi({ path: '/' })
    expect(await failureOf(client.sendOutsideTheApi({ method: 'PATCH', path: '/', json: {} }))).toContain(
      'the server closed the connection without answering',
    )
    expect([patches, server.connections()]).toEqual([1, 1])
  })

  test('a 101 nobody asked for is no answer, and said so at once (node would wait for the deadline)', async () => {
    const server = await rawServer((_requests, socket) =>
      socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: foo\r\nConnection: upgrade\r\n\r\n'),
    )
    const client = new ContractClient({ baseUrl: server.url, spec: await loadSpec(), checks: [], timeoutMs: 60_000 })
    expect(await failureOf(client.sendOutsideTheApi({ path: '/' }))).toContain(
      'the server closed the connection without answering',
    )
  })

  test('a server that closes without answering, or before its answer ends, is said so, not as a reset', async () => {
    const silent = await rawServer((_requests, socket) => socket.end())
    expect(await failureOf((await clientFor(silent.url)).sendOutsideTheApi({ path: '/' }))).toContain(
      'Received: the server closed the connection without answering (socket hang up)',
    )
    const cut = await rawServer((_requests, socket) =>
      socket.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"data":'),
    )
    expect(await failureOf((await clientFor(cut.url)).sendOutsideTheApi({ path: '/' }))).toContain(
      'Received: the server closed the connection before its answer ended',
    )
  })

  test('broken chunked framing after the head is an answer that is not HTTP', async () => {
    const server = await rawServer((_requests, socket) =>
      socket.end(
        'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n5\r\n{"a":\r\nzz\r\n',
      ),
    )
    expect(await failureOf((await clientFor(server.url)).sendOutsideTheApi({ path: '/' }))).toMatch(
      /Received: an answer that is not HTTP \(HPE_INVALID_CHUNK_SIZE/,
    )
  })

  test('a body that trickles past the timeout ends with it, saying the head came', async () => {
    const server = await rawServer((_requests, socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{')
    })
    const client = new ContractClient({ baseUrl: server.url, spec: await loadSpec(), checks: [], timeoutMs: 5_000 })
    expect(await failureOf(client.sendOutsideTheApi({ path: '/' }))).toContain(
      'no complete response within 5000 ms (timed out: 200 and its headers came, the body was still arriving)',
    )
  })
})

describe('https', () => {
  let folder: string
  let url: string

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'client-tls-'))
    // A certificate for 127.0.0.1 made now: trusted by a child given it, by nobody else.
    await promisify(execFile)('openssl', [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1'],
      ...['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
      ...['-keyout', join(folder, 'key.pem'), '-out', join(folder, 'cert.pem')],
    ])
    const [key, cert] = await Promise.all([readFile(join(folder, 'key.pem')), readFile(join(folder, 'cert.pem'))])
    const server = createHttpsServer({ key, cert }, (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
      response.end(gzipSync('{"over":"tls"}'))
    })
    url = `https://${await listen(server)}`
  })

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true })
  })

  test('a certificate nobody trusts: TLS failed, no answer', async () => {
    expect(await failureOf((await clientFor(url)).sendOutsideTheApi({ path: '/' }))).toMatch(
      /Received: TLS failed \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE)\)/,
    )
  })

  test('a certificate the process trusts (NODE_EXTRA_CA_CERTS): answered, decoded', async () => {
    // The CA list is read at the process's start: a child trusts the certificate, this process does not.
    const script = `import { createHttpTransport } from './src/http/http-client.ts'
const answer = await createHttpTransport()({ method: 'GET', url: '${url}/', headers: {}, signal: AbortSignal.timeout(5000) })
const chunks = []
for await (const chunk of answer.body) chunks.push(Buffer.from(chunk))
console.log(answer.status, Buffer.concat(chunks).toString())`
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        env: { ...process.env, NODE_EXTRA_CA_CERTS: join(folder, 'cert.pem') },
      },
    )
    expect(stdout.trim()).toBe('200 {"over":"tls"}')
  })
})

describe('an HTTP proxy from the environment', () => {
  test('taken when node is told to (NODE_USE_ENV_PROXY=1), as fetch takes it', async () => {
    const seen: string[] = []
    const proxy = createHttpServer((request, response) => {
      seen.push(request.url ?? '')
      response.writeHead(200, { 'content-type': 'text/plain' }).end('via the proxy')
    })
    const proxyUrl = `http://${await listen(proxy)}`
    // Port 2 on loopback: nothing listens there; only the proxy answers, for it. (fetch would tunnel
    // through CONNECT, which this proxy does not offer; node's agent sends the absolute URL.)
    const script = `import { createHttpTransport } from './src/http/http-client.ts'
const answer = await createHttpTransport()({ method: 'GET', url: 'http://127.0.0.1:2/api/users/me', headers: {}, signal: AbortSignal.timeout(5000) })
const chunks = []
for await (const chunk of answer.body) chunks.push(Buffer.from(chunk))
console.log(answer.status, Buffer.concat(chunks).toString())`
    const run = (env: NodeJS.ProcessEnv) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env })
    const env: NodeJS.ProcessEnv = { ...process.env, HTTP_PROXY: proxyUrl }
    for (const name of ['http_proxy', 'NO_PROXY', 'no_proxy', 'NODE_USE_ENV_PROXY']) delete env[name]
    expect((await run({ ...env, NODE_USE_ENV_PROXY: '1' })).stdout.trim()).toBe('200 via the proxy')
    expect(seen).toEqual(['http://127.0.0.1:2/api/users/me'])
    // Not told to: no proxy, as fetch then takes none.
    await expect(run(env)).rejects.toThrow(/ECONNREFUSED/)
  })
})

test('the transport alone: a HEAD has no body to read, whatever its Content-Length', async () => {
  const server = await recordingServer(() => ({ headers: { 'content-length': '5' } }))
  const answer = await createHttpTransport()({
    method: 'HEAD',
    url: `${server.url}/`,
    headers: {},
    signal: AbortSignal.timeout(5000),
  })
  expect([answer.status, answer.body, answer.headers['content-length']]).toEqual([200, null, '5'])
})
