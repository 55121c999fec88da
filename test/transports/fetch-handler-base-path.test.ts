import { expect, test } from 'vitest'
import { createFetchHandler } from '../../src/fetch/create-fetch-handler.js'

// Mounted under a base path, the fetch handler answers the users API there and nothing elsewhere; it
// reads a request body only as far as the users API's limit.

const handle = createFetchHandler({ basePath: '/mock' })
const get = (path: string) =>
  handle(new Request(`http://app.test${path}`, { headers: { authorization: 'Bearer owner-token' } }))

test('/mock/api/… is the users API', async () => {
  expect((await get('/mock/api/users/me')).status).toBe(200)
})

test.each(['/api/users/me', '/mockapi/users/me', '/mockhttp://x/api/users/me'])(
  '%s, outside the base path, is a 404 problem, never the API',
  async (path) => {
    const response = await get(path)
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
  },
)

test('a streamed body that has sent 16 KiB and one byte is a 413 at once, though it never ends', async () => {
  const handle = createFetchHandler()
  const endless = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array(16 * 1024 + 1).fill(0x20))
      // Never closed: the handler must not wait for the rest.
    },
  })
  const response = await handle(
    new Request('http://app.test/api/users/usr_1', {
      method: 'PATCH',
      headers: { authorization: 'Bearer owner-token', 'content-type': 'application/json' },
      body: endless,
      duplex: 'half',
    } as RequestInit),
  )
  expect(response.status).toBe(413)
})
