import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'
import type { Problem } from '../support/api-exchange.js'
import { namedUser } from '../support/named-users.js'
import { sendRaw } from '../support/raw-http.js'

// Requests that only a hand on the wire sends, each answered as the contract says and in its order of
// checks (CONTRACT §1, §3, §4, §5), over a real socket. Nothing here may change the state.

let mock: RunningMock
let stateBefore: string
const owner = { authorization: 'Bearer owner-token' }
const viewerId = namedUser('viewer-token').id

beforeAll(async () => {
  mock = await startMock({ users: 5 })
  stateBefore = await (await fetch(`${mock.url}/__mock/state`)).text()
})

afterAll(async () => {
  expect(await (await fetch(`${mock.url}/__mock/state`)).text()).toBe(stateBefore)
  await mock.close()
})

/** Sends bytes as they are and reads the whole answer (the connection is closed by the request). */
function sendBytes(bytes: string): Promise<string> {
  const { hostname, port } = new URL(mock.url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes))
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')))
  })
}

const patchViewer = (headers: Record<string, string>, body: Buffer) =>
  sendRaw(mock.url, { method: 'PATCH', path: `/api/users/${viewerId}`, headers: { ...owner, ...headers }, body })

describe('bodies and their encodings (CONTRACT §4 PATCH)', () => {
  test.each(['br', 'gzip', 'deflate', 'GZIP'])(
    'Content-Encoding: %s is a 415, and nothing changes',
    async (encoding) => {
      const answer = await patchViewer(
        { 'content-type': 'application/json', 'content-encoding': encoding },
        Buffer.from('{"name":"Encoded"}'),
      )
      expect(answer.status).toBe(415)
      expect((answer.body as Problem).code).toBe('UNSUPPORTED_MEDIA_TYPE')
    },
  )

  test('Content-Encoding: identity is no encoding: the body is read', async () => {
    const answer = await patchViewer(
      { 'content-type': 'application/json', 'content-encoding': 'identity' },
      Buffer.from('{"name":""}'),
    )
    expect(answer.status).toBe(400)
  })

  test('bytes that are not UTF-8 are a 400 in the body, not a name with U+FFFD', async () => {
    const answer = await patchViewer(
      { 'content-type': 'application/json' },
      Buffer.concat([Buffer.from('{"name":"Ad'), Buffer.from([0xff, 0xfe]), Buffer.from('a"}')]),
    )
    expect(answer.status).toBe(400)
    expect((answer.body as Problem).errors).toEqual([{ in: 'body', path: '', message: 'the body is not valid UTF-8' }])
  })

  test('a body over 16 KiB is a 413 on GET too', async () => {
    const answer = await sendRaw(mock.url, {
      method: 'GET',
      path: '/api/users/me',
      headers: owner,
      body: Buffer.alloc(16 * 1024 + 1, 'x'),
    })
    expect(answer.status).toBe(413)
    expect((answer.body as Problem).code).toBe('PAYLOAD_TOO_LARGE')
  })

  test('a GET body within the limit is ignored', async () => {
    const answer = await sendRaw(mock.url, {
      method: 'GET',
      path: '/api/users/me',
      headers: owner,
      body: Buffer.from('x'),
    })
    expect(answer.status).toBe(200)
  })
})

describe('ids and numbers that cannot be (CONTRACT §3, §4)', () => {
  test('page=2^53 + 1 is a 400, never a rounded page', async () => {
    const answer = await sendRaw(mock.url, { method: 'GET', path: '/api/users?page=9007199254740993', headers: owner })
    expect(answer.status).toBe(400)
    expect((answer.body as Problem).errors?.[0]).toMatchObject({ in: 'query', path: '/page' })
  })

  test('page=2^53 - 1 is a page past the end: 200 with no data', async () => {
    const answer = await sendRaw(mock.url, { method: 'GET', path: '/api/users?page=9007199254740991', headers: owner })
    expect(answer.status).toBe(200)
    expect((answer.body as { meta: { page: number } }).meta.page).toBe(9007199254740991)
  })

  test('an id that is not validly percent-encoded is a 400 at /id in path', async () => {
    const answer = await sendRaw(mock.url, { method: 'GET', path: '/api/users/%ZZ', headers: owner })
    expect(answer.status).toBe(400)
    expect((answer.body as Problem).errors).toEqual([
      { in: 'path', path: '/id', message: 'is not validly percent-encoded' },
    ])
  })

  test('an id over 4,096 characters is a 400 at /id; one of 4,096 is merely unknown: 404', async () => {
    const long = await sendRaw(mock.url, { method: 'GET', path: `/api/users/${'a'.repeat(4097)}`, headers: owner })
    expect(long.status).toBe(400)
    expect((long.body as Problem).errors?.[0]).toMatchObject({ in: 'path', path: '/id' })
    const fits = await sendRaw(mock.url, { method: 'GET', path: `/api/users/${'a'.repeat(4096)}`, headers: owner })
    expect(fits.status).toBe(404)
  })

  test('in the order of checks: PUT on a malformed id is 405, a text/plain PATCH of it 415', async () => {
    const put = await sendRaw(mock.url, { method: 'PUT', path: '/api/users/%ZZ', headers: owner })
    expect(put.status).toBe(405)
    expect(put.headers['allow']).toBe('GET, DELETE, PATCH')
    const patch = await sendRaw(mock.url, {
      method: 'PATCH',
      path: '/api/users/%ZZ',
      headers: { ...owner, 'content-type': 'text/plain' },
      body: Buffer.from('x'),
    })
    expect(patch.status).toBe(415)
  })
})

describe('routes and methods (CONTRACT §2, §4)', () => {
  test('/%61pi/… is the users API: authentication first', async () => {
    const anonymous = await sendRaw(mock.url, { method: 'GET', path: '/%61pi/nothing', headers: {} })
    expect(anonymous.status).toBe(401)
    const known = await sendRaw(mock.url, { method: 'GET', path: '/%61pi/users/me', headers: owner })
    expect(known.status).toBe(200)
  })

  test.each(['PROPFIND', 'TRACE', 'QUERY', 'PUT', 'POST'])(
    '%s on /api/users/me is a 405 with Allow: GET',
    async (method) => {
      const answer = await sendRaw(mock.url, { method, path: '/api/users/me', headers: owner })
      expect(answer.status).toBe(405)
      expect(answer.headers['allow']).toBe('GET')
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/)
    },
  )
})

describe("what node's own parser used to answer (CONTRACT §5: every error is a problem)", () => {
  test('a request without Host is answered, not refused with a bare 400', async () => {
    const answer = await sendBytes(
      'GET /api/users/me HTTP/1.1\r\nAuthorization: Bearer owner-token\r\nConnection: close\r\n\r\n',
    )
    expect(answer).toMatch(/^HTTP\/1\.1 200 /)
  })

  test('an Expect other than 100-continue is ignored (RFC 9110), not a bare 417', async () => {
    const answer = await sendRaw(mock.url, {
      method: 'GET',
      path: '/api/users/me',
      headers: { ...owner, expect: 'teapot' },
    })
    expect(answer.status).toBe(200)
  })
})
