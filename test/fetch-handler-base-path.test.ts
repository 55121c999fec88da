import { expect, test } from 'vitest'
import { createFetchHandler } from '../src/fetch/create-fetch-handler.js'

// Mounted under a base path, the fetch handler answers the users API there and nothing elsewhere.

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
