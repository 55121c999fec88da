import type { ListQuery, User, UserPatch } from '../domain/user.js'
import type { UserStore } from '../domain/user-store.js'
import type { EngineResponse } from './engine-request.js'
import type { UserJson } from './user-json.js'
import type { ValidRequest } from './validate-request.js'

export interface HandlerContext extends ValidRequest {
  store: UserStore
  caller: User
  json: UserJson
}

/** What an operation answers: its status and JSON text (none for 204). */
export type OperationHandler = (context: HandlerContext) => Pick<EngineResponse, 'status' | 'body'>

/**
 * The handler of each operationId of the document that answers a success; the engine refuses to start
 * when one is missing. Existence (404), permission (403) and the state rule (409) are the store's.
 */
export const OPERATION_HANDLERS: Record<string, OperationHandler> = {
  listUsers: ({ store, caller, query, json }) => ok(json.page(store.listUsers(caller, query as unknown as ListQuery))),
  getCurrentUser: ({ caller, json }) => ok(json.envelope(caller)),
  getUser: ({ store, caller, params, json }) => ok(json.envelope(store.getUser(caller, params['id'] as string))),
  updateUser: ({ store, caller, params, body, json }) =>
    ok(json.envelope(store.updateUser(caller, params['id'] as string, body as UserPatch))),
  deleteUser: ({ store, caller, params }) => {
    store.deleteUser(caller, params['id'] as string)
    return { status: 204 }
  },
}

function ok(body: string): Pick<EngineResponse, 'status' | 'body'> {
  return { status: 200, body }
}
