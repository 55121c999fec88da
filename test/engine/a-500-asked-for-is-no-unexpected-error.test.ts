import { expect, test } from 'vitest'
import { createUsersApiMock } from '../../src/mock-instance/create-users-api-mock.js'

test('Prefer: code=500 answers the documented 500 problem without reporting an unexpected error', async () => {
  const unexpected: unknown[] = []
  const mock = await createUsersApiMock({ onUnexpectedError: (error) => unexpected.push(error) })
  const response = await mock.handle({
    method: 'GET',
    url: '/api/users/me',
    headers: { authorization: 'Bearer owner-token', prefer: 'code=500' },
  })
  expect(response.status).toBe(500)
  expect(JSON.parse(response.body ?? '{}')).toMatchObject({ status: 500, code: 'INTERNAL' })
  expect(unexpected).toEqual([])
})
