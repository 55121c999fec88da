/**
 * `users-api-kit/fetch`: the users API mock as a standard fetch handler.
 *
 * @example
 * import { createFetchHandler } from 'users-api-kit/fetch'
 * const handle = createFetchHandler()
 * const response = await handle(new Request('http://mock/api/users/me', { headers: { authorization: 'Bearer owner-token' } }))
 */
import '../require-supported-node.js'
export { createFetchHandler } from './create-fetch-handler.js'
export type { FetchHandler, FetchHandlerOptions } from './create-fetch-handler.js'
export { createUsersApiMock } from '../mock-instance/create-users-api-mock.js'
export type { UsersApiMock, UsersApiMockOptions } from '../mock-instance/create-users-api-mock.js'
