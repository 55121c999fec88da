import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'

// Methods Fastify or node do not route: a CONNECT got no answer at all (node closed the connection), and
// a control path asked with a method it does not answer was a 404, where the users API answers 405.

let mock: RunningMock

beforeAll(async () => {
  mock = await startMock({ users: 2 })
})

afterAll(() => mock.close())

/** One request written by hand on a fresh connection; everything the mock sent until it closed. */
function sendRaw(url: string, head: string): Promise<string> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    let received = ''
    const socket = connect(Number(port), hostname, () => socket.write(head))
    socket.setTimeout(5_000, () => socket.destroy(new Error(`no end within 5 s; received: ${received}`)))
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()))
    socket.on('error', reject)
    socket.on('close', () => resolve(received))
  })
}

describe('methods the routers do not know', () => {
  test('CONNECT is answered: a 400 problem saying that the mock is no proxy, then the connection closes', async () => {
    const { host } = new URL(mock.url)
    const answer = await sendRaw(mock.url, `CONNECT ${host} HTTP/1.1\r\nHost: ${host}\r\n\r\n`)
    expect(answer).toMatch(/^HTTP\/1\.1 400 /)
    expect(answer).toMatch(/content-type: application\/problem\+json/i)
    expect(answer).toContain('no proxy')
  })

  test.each([
    ['PROPFIND', '/__mock/tokens', 'GET, HEAD'],
    ['DELETE', '/__mock/tokens', 'GET, HEAD'],
    ['DELETE', '/__mock/state', 'GET, HEAD, PUT'],
    ['PATCH', '/__mock/webhooks/whk_0123', 'DELETE'],
    ['GET', '/__mock/reset', 'POST'],
  ])('%s %s is a 405 problem with Allow: %s', async (method, path, allow) => {
    const response = await fetch(`${mock.url}${path}`, { method })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe(allow)
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
  })

  test('an unknown control path is still a 404 problem', async () => {
    const response = await fetch(`${mock.url}/__mock/nothing-here`, { method: 'PROPFIND' })
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
  })
})
