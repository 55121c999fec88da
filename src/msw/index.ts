/**
 * `users-api-kit/msw`: the users API mock as MSW request handlers (msw is an optional peer dependency).
 *
 * @example
 * import { setupServer } from 'msw/node'
 * import { createMockHandlers } from 'users-api-kit/msw'
 * const { handlers, mock } = createMockHandlers()
 * const server = setupServer(...handlers)
 */
import '../require-supported-node.js'
export { createMockHandlers } from './create-mock-handlers.js'
export type { MockHandlersOptions } from './create-mock-handlers.js'
export { createUsersApiMock } from '../mock-instance/create-users-api-mock.js'
export type { UsersApiMock, UsersApiMockOptions } from '../mock-instance/create-users-api-mock.js'
