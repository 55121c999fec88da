import { createHash } from 'node:crypto'
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startProxy, type RunningProxy } from '../../src/proxy/start-proxy.js'

// Issue 23: the proxy "forwards every request to the upstream unchanged (method, path, query, headers,
// body; streaming) and returns the upstream's answer unchanged". A canned upstream answers the same
// bytes every time; each answer got through the proxy must be the one got directly, byte for byte:
// status line, end-to-end headers (order, case, repetitions) and body (compressed bytes as sent).

const GZIPPED = gzipSync(JSON.stringify({ data: 'x'.repeat(5000) }))
const FIXED_DATE = 'Mon, 01 Jan 2024 00:00:00 GMT'

/** What the canned upstream saw of the last request to /echo. */
let echoed: { method: string; url: string; rawHeaders: string[]; body: string } | undefined

function cannedAnswer(request: IncomingMessage, response: ServerResponse, body: Buffer): void {
  response.sendDate = false
  const path = (request.url ?? '').split('?')[0]
  if (path === '/odd') {
    response.writeHead(200, 'Fine Thanks', [
      'Date',
      FIXED_DATE,
      'X-Trace',
      'a',
      'x-trace',
      'b',
      'Set-Cookie',
      'a=1',
      'Set-Cookie',
      'b=2',
      'Content-Type',
      'application/json; charset=utf-8',
      'Content-Length',
      '11',
    ])
    return void response.end('{"ok":true}')
  }
  if (path === '/gzip') {
    response.writeHead(200, {
      Date: FIXED_DATE,
      'Content-Type': 'application/json',
      'Content-Encoding': 'gzip',
      'Content-Length': GZIPPED.length,
    })
    return void response.end(GZIPPED)
  }
  if (path === '/chunked') {
    response.writeHead(200, { Date: FIXED_DATE, 'Content-Type': 'text/plain' })
    let count = 0
    const timer = setInterval(() => {
      count += 1
      response.write(`part ${count}\n`)
      if (count === 5) {
        clearInterval(timer)
        response.end()
      }
    }, 5)
    return
  }
  if (path === '/redirect') {
    response.writeHead(302, { Date: FIXED_DATE, Location: 'http://elsewhere.invalid/', 'Content-Length': '0' })
    return void response.end()
  }
  if (path === '/empty') {
    response.writeHead(204, { Date: FIXED_DATE })
    return void response.end()
  }
  if (path === '/echo') {
    echoed = {
      method: request.method ?? '',
      url: request.url ?? '',
      rawHeaders: request.rawHeaders,
      body: body.toString('latin1'),
    }
    response.writeHead(200, { Date: FIXED_DATE, 'Content-Type': 'text/plain', 'Content-Length': body.length })
    return void response.end(body)
  }
  response.writeHead(404, { Date: FIXED_DATE, 'Content-Length': '0' })
  response.end()
}

interface RawAnswer {
  status: number
  statusMessage: string
  rawHeaders: string[]
  body: Buffer
}

/** One request by node:http, which decompresses nothing and follows nothing. */
function send(
  base: string,
  method: string,
  path: string,
  rawHeaders: string[] = [],
  body?: Buffer,
): Promise<RawAnswer> {
  const { hostname, port, host } = new URL(base)
  // Headers given as a list go as they are: Host too, which HTTP/1.1 requires.
  const named = rawHeaders.some((name, index) => index % 2 === 0 && name.toLowerCase() === 'host')
  const headers = named ? rawHeaders : ['Host', host, ...rawHeaders]
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: hostname, port, method, path, headers, agent: false }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          statusMessage: response.statusMessage ?? '',
          rawHeaders: response.rawHeaders,
          body: Buffer.concat(chunks),
        }),
      )
      response.on('error', reject)
    })
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

/** The end-to-end part of an answer: what the proxy must not change (RFC 9110 §7.6.1). */
function endToEnd(answer: RawAnswer): unknown {
  const hopByHop = ['connection', 'keep-alive', 'transfer-encoding']
  const headers: string[] = []
  for (let index = 0; index < answer.rawHeaders.length; index += 2) {
    const name = answer.rawHeaders[index] as string
    if (!hopByHop.includes(name.toLowerCase())) headers.push(`${name}: ${answer.rawHeaders[index + 1]}`)
  }
  return {
    status: answer.status,
    statusMessage: answer.statusMessage,
    headers,
    body: createHash('sha256').update(answer.body).digest('hex'),
  }
}

let upstream: Server
let upstreamUrl: string
let proxy: RunningProxy

beforeAll(async () => {
  upstream = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => cannedAnswer(request, response, Buffer.concat(chunks)))
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
  proxy = await startProxy({ upstream: upstreamUrl, port: 0 })
})

afterAll(async () => {
  await proxy?.close()
  await new Promise((resolve) => upstream?.close(resolve))
})

describe('the proxy forwards', () => {
  test.each([
    ['GET', '/odd', 'an odd status text, repeated headers, two cookies'],
    ['GET', '/gzip', 'a gzip body, as compressed bytes'],
    ['GET', '/chunked', 'a body streamed in parts'],
    ['GET', '/redirect', 'a redirect, which it never follows'],
    ['GET', '/empty', 'a 204'],
    ['HEAD', '/gzip', 'an answer to HEAD'],
  ])('%s %s unchanged: %s', async (method, path) => {
    const direct = await send(upstreamUrl, method, path)
    const through = await send(proxy.url, method, path)
    expect(direct.status).not.toBe(400)
    expect(endToEnd(through)).toEqual(endToEnd(direct))
  })

  test('the request unchanged but for Host and the hop-by-hop headers', async () => {
    const body = Buffer.from([0x7b, 0xff, 0x00, 0x7d])
    const headers = [
      'X-Custom',
      'One',
      'x-custom',
      'two',
      'Connection',
      'keep-alive, X-Hop',
      'X-Hop',
      'gone',
      'Content-Type',
      'text/odd',
      'Content-Length',
      String(body.length),
      'Host',
      'client.example',
    ]
    await send(proxy.url, 'POST', '/echo?b=2&a=1&a=%ZZ', headers, body)
    const { host } = new URL(upstreamUrl)
    expect(echoed).toEqual({
      method: 'POST',
      url: '/echo?b=2&a=1&a=%ZZ',
      rawHeaders: [
        'X-Custom',
        'One',
        'x-custom',
        'two',
        'Content-Type',
        'text/odd',
        'Content-Length',
        '4',
        'Host',
        host,
        'Connection',
        'keep-alive',
      ],
      body: body.toString('latin1'),
    })
  })

  test("never to a target the client names: an absolute-form request is the proxy's own 400", async () => {
    const answer = await send(proxy.url, 'GET', 'http://elsewhere.invalid/api/users')
    expect(answer.status).toBe(400)
    expect(answer.rawHeaders).toContain('x-users-api-kit-proxy')
    expect(JSON.parse(answer.body.toString()).code).toBe('TARGET_REFUSED')
  })

  test('no tunnel: CONNECT is refused with 405', async () => {
    const { port } = new URL(proxy.url)
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write('CONNECT elsewhere.invalid:443 HTTP/1.1\r\nHost: elsewhere.invalid:443\r\n\r\n'),
      )
      let text = ''
      socket.on('data', (chunk) => (text += chunk.toString()))
      socket.on('end', () => resolve(text))
      socket.on('error', reject)
    })
    expect(reply).toMatch(/^HTTP\/1\.1 405 /)
  })

  test('outside /api nothing is judged, and nothing was found on the way', async () => {
    await proxy.settled()
    expect(proxy.log.counts.judged).toBe(0)
    // Six answers and the echo were forwarded; the absolute-form request and CONNECT were not.
    expect(proxy.log.counts.exchanges).toBe(7)
    expect(proxy.log.recent()).toEqual([])
  })
})
