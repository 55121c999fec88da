import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFetchHandler } from '../../src/fetch/create-fetch-handler.js'
import type { CorsOrigins } from '../../src/mock-instance/cors-rule.js'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'
import { namedUser } from '../support/named-users.js'
import { serveFetchHandler } from '../support/serve-fetch-handler.js'

// The fetch handler answers a browser on another origin as the mock server does: each request below
// goes to both, over real sockets, and the status and every CORS header must be the same.

const FRONTEND = 'http://localhost:5173'
const LISTED = 'https://app.example'
const VIEWER = namedUser('viewer-token').id

interface Sent {
  label: string
  method: string
  path: string
  headers: Record<string, string>
}

const REQUESTS: Sent[] = [
  {
    label: "a preflight of a PATCH with the app's headers",
    method: 'OPTIONS',
    path: `/api/users/${VIEWER}`,
    headers: {
      origin: FRONTEND,
      'access-control-request-method': 'PATCH',
      'access-control-request-headers': 'authorization,content-type',
    },
  },
  {
    label: 'a preflight from a listed origin',
    method: 'OPTIONS',
    path: '/api/users',
    headers: { origin: LISTED, 'access-control-request-method': 'DELETE' },
  },
  { label: 'an OPTIONS without Origin', method: 'OPTIONS', path: '/api/users/me', headers: {} },
  {
    label: 'a GET from a page, with a token',
    method: 'GET',
    path: '/api/users/me',
    headers: { origin: FRONTEND, authorization: 'Bearer owner-token' },
  },
  {
    label: 'a GET from a page, without a token (401)',
    method: 'GET',
    path: '/api/users/me',
    headers: { origin: LISTED },
  },
  {
    label: 'a DELETE of /me (405)',
    method: 'DELETE',
    path: '/api/users/me',
    headers: { origin: FRONTEND, authorization: 'Bearer owner-token' },
  },
  {
    label: 'a GET without Origin (curl, a test, a backend)',
    method: 'GET',
    path: '/api/users/me',
    headers: { authorization: 'Bearer owner-token' },
  },
  { label: 'a GET outside /api (404)', method: 'GET', path: '/elsewhere', headers: { origin: FRONTEND } },
]

const SETTINGS: Array<[string, CorsOrigins]> = [
  ['any origin (the default)', true],
  [`only ${LISTED}`, [LISTED]],
  ['no CORS', false],
]

describe.each(SETTINGS)('CORS: %s', (_name, cors) => {
  let server: RunningMock
  let handler: { url: string; close: () => Promise<void> }

  beforeAll(async () => {
    server = await startMock({ users: 3, disposable: 0, cors })
    handler = await serveFetchHandler(createFetchHandler({ users: 3, cors }))
  })
  afterAll(async () => {
    await server?.close()
    await handler?.close()
  })

  test.each(REQUESTS)('$label: the same status and CORS headers from both', async (sent) => {
    const [fromServer, fromHandler] = await Promise.all([send(server.url, sent), send(handler.url, sent)])
    expect(fromHandler).toEqual(fromServer)
  })
})

test('a preflight is answered 204 with the origin, the methods and the asked headers', async () => {
  const handle = createFetchHandler()
  const response = await handle(
    new Request(`http://mock.test/api/users/${VIEWER}`, {
      method: 'OPTIONS',
      headers: {
        origin: FRONTEND,
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'authorization',
      },
    }),
  )
  expect(response.status).toBe(204)
  expect(response.headers.get('access-control-allow-origin')).toBe(FRONTEND)
  expect(response.headers.get('access-control-allow-methods')).toContain('PATCH')
  expect(response.headers.get('access-control-allow-headers')).toBe('authorization')
})

test('mounted under a base path, an OPTIONS outside it is not the mock’s to answer', async () => {
  const handle = createFetchHandler({ basePath: '/mock' })
  const inside = await handle(
    new Request('http://app.test/mock/api/users', { method: 'OPTIONS', headers: { origin: FRONTEND } }),
  )
  const outside = await handle(
    new Request('http://app.test/api/users', { method: 'OPTIONS', headers: { origin: FRONTEND } }),
  )
  expect(inside.status).toBe(204)
  expect(outside.status).toBe(404)
})

/** The status and the CORS headers (access-control-*, Vary) of one answer. */
async function send(base: string, sent: Sent): Promise<{ status: number; cors: Record<string, string> }> {
  const response = await fetch(`${base}${sent.path}`, { method: sent.method, headers: sent.headers })
  await response.arrayBuffer()
  const cors = Object.fromEntries(
    [...response.headers].filter(([name]) => name.startsWith('access-control-') || name === 'vary'),
  )
  return { status: response.status, cors }
}
