import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ListQuery, User, UserPatch } from '../domain/user.js'
import { toEnvelopeJson, toPageJson } from './user-json.js'
import type { UserStore } from '../domain/user-store.js'
import { AppError } from '../errors.js'

export interface HandlerContext {
  request: FastifyRequest
  reply: FastifyReply
  store: UserStore
  caller: User
  /** The methods the operation's path answers, for 405s. */
  allow: string[]
}

/** What a handler answers: the reply it sent. */
export type OperationHandler = (context: HandlerContext) => unknown

function idOf(request: FastifyRequest): string {
  return (request.params as { id: string }).id
}

/** CONTRACT §4: a method the path does not answer, with `Allow`. */
export function methodNotAllowedError(request: FastifyRequest, allow: string[]): AppError {
  const path = request.url.split('?')[0]
  return new AppError('METHOD_NOT_ALLOWED', `${path} answers ${allow.join(', ')} only.`, { allow })
}

function methodNotAllowed({ request, allow }: HandlerContext): never {
  throw methodNotAllowedError(request, allow)
}

/** The handler of each operationId of the document; the mock refuses to start if one is missing. */
export const OPERATION_HANDLERS: Record<string, OperationHandler> = {
  listUsers: ({ request, reply, store, caller }) =>
    sendJson(reply, toPageJson(store.listUsers(caller, request.query as ListQuery))),
  getCurrentUser: ({ reply, caller }) => sendJson(reply, toEnvelopeJson(caller)),
  getUser: ({ request, reply, store, caller }) => sendJson(reply, toEnvelopeJson(store.getUser(caller, idOf(request)))),
  updateUser: ({ request, reply, store, caller }) =>
    sendJson(reply, toEnvelopeJson(store.updateUser(caller, idOf(request), request.body as UserPatch))),
  deleteUser: ({ request, reply, store, caller }) => {
    store.deleteUser(caller, idOf(request))
    return reply.code(204).send()
  },
  // CONTRACT §4: `me` answers GET only.
  updateCurrentUser: methodNotAllowed,
  deleteCurrentUser: methodNotAllowed,
}

export { methodNotAllowed }

function sendJson(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json)
}
