import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'

// A mock on 127.0.0.1 is out of other machines' reach, not of the web pages its developer opens: the
// control routes refuse other origins and DNS names rebound to 127.0.0.1. Real HTTP: the guard reads
// the connection's local address.

let mock: RunningMock
let listed: RunningMock

beforeAll(async () => {
  mock = await startMock({ users: 2 })
  listed = await startMock({ users: 2, cors: ['http://localhost:5173'] })
})

afterAll(async () => {
  await mock.close()
  await listed.close()
})

async function stateText(target: RunningMock): Promise<string> {
  return (await fetch(`${target.url}/__mock/state`)).text()
}

describe('control routes and web pages', () => {
  test('a page of another origin cannot reset, replace or read: 403 problem, and nothing changes', async () => {
    const before = await stateText(mock)
    const origin = { origin: 'https://evil.example' }
    const reset = await fetch(`${mock.url}/__mock/reset`, { method: 'POST', headers: origin })
    expect(reset.status).toBe(403)
    expect(reset.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    expect(((await reset.json()) as { detail: string }).detail).toContain('--cors')
    const put = await fetch(`${mock.url}/__mock/state`, {
      method: 'PUT',
      headers: { ...origin, 'content-type': 'application/json' },
      body: JSON.stringify({ organizations: [], users: [] }),
    })
    expect(put.status).toBe(403)
    expect((await fetch(`${mock.url}/__mock/tokens`, { headers: origin })).status).toBe(403)
    expect(await stateText(mock)).toBe(before)
  })

  test('a DNS name rebound to 127.0.0.1 (Host: evil.example) is refused', async () => {
    const response = await rawGet(mock.url, '/__mock/tokens', 'evil.example:80')
    expect(response.status).toBe(403)
    expect(response.body).toContain('DNS rebinding')
  })

  test('curl and test runners (no Origin) pass, and so do localhost, 127.0.0.1 and the same origin', async () => {
    const port = new URL(mock.url).port
    expect((await fetch(`${mock.url}/__mock/tokens`)).status).toBe(200)
    expect((await rawGet(mock.url, '/__mock/tokens', `localhost:${port}`)).status).toBe(200)
    expect((await fetch(`${mock.url}/__mock/tokens`, { headers: { origin: mock.url } })).status).toBe(200)
  })

  test('an origin listed with --cors may call them', async () => {
    const headers = { origin: 'http://localhost:5173' }
    expect((await fetch(`${listed.url}/__mock/reset`, { method: 'POST', headers })).status).toBe(200)
    const other = { origin: 'http://localhost:3000' }
    expect((await fetch(`${listed.url}/__mock/reset`, { method: 'POST', headers: other })).status).toBe(403)
  })

  test('the users API still answers any origin (CORS is for the API)', async () => {
    const response = await fetch(`${mock.url}/api/users/me`, {
      headers: { origin: 'https://app.example', authorization: 'Bearer owner-token' },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example')
  })
})

/** fetch() sets Host from the URL; a rebound DNS name is a Host header that differs from the address. */
async function rawGet(url: string, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { headers: { host } }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end()
  })
}
