/**
 * `users-api-kit/msw` as Node imports it (the `node` condition of package.json's exports): the same
 * exports as ./index.ts, loaded once msw is known to be there. msw is an optional peer dependency, and
 * a static import of it would fail with Node's "Cannot find package 'msw'" before any line of the kit
 * ran; here a project without msw 3 is told, in one line, what to install. Browsers and bundlers read
 * ./index.ts, as they always did.
 *
 * @example
 * import { createMockHandlers } from 'users-api-kit/msw'
 */
import '../require-supported-node.js'
import { findPeerProblem } from '../files/optional-peer.js'
import type * as MswEntry from './index.js'

const problem = await findPeerProblem('msw', 'users-api-kit/msw answers through msw')
if (problem !== undefined) throw new Error(problem)
const entry: typeof MswEntry = await import('./index.js')

export const createMockHandlers = entry.createMockHandlers
export const createUsersApiMock = entry.createUsersApiMock
export type { MockHandlersOptions, UsersApiMock, UsersApiMockOptions } from './index.js'
