import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Database } from '../database/database.js'
import { authenticate } from './authenticate.js'
import { deleteUser, getCurrentUser, getUser, listUsers, updateUser, type Answer } from './operations.js'
import { assertJsonBody, parseId, parseListQuery, parseUserPatch } from './parse-input.js'
import { toProblem } from './problem.js'
import { readBody } from './read-body.js'
import { routeRequest } from './route.js'

export interface ApiDependencies {
  db: Database
  onEventsCommitted: () => void
  /** Where the cause of a 500 goes (the answer never carries it). */
  log: (line: string) => void
}

/**
 * Every request under /api, in the order of checks of docs/contract.md §3: a request that breaks
 * several rules gets the answer of the first. Fastify's router is not used for /api: it refuses a
 * path that is not validly percent-encoded (400) before any hook runs, where the contract wants 401
 * first, and it matches /api/users/ as an empty id.
 */
export async function handleApiRequest(request: FastifyRequest, reply: FastifyReply, deps: ApiDependencies) {
  const { path, query } = splitTarget(request.raw.url ?? '/')
  const method = request.method
  try {
    const caller = await authenticate(deps.db, request.headers.authorization) //  401
    const route = routeRequest(method, path) //                                      404, 405
    const body = await readBody(request.raw) //                                      413
    const context = { db: deps.db, caller, onEventsCommitted: deps.onEventsCommitted }
    let answer: Answer
    switch (route.operation) {
      case 'listUsers': //                                                           400, 403
        answer = await listUsers(context, parseListQuery(query))
        break
      case 'getCurrentUser':
        answer = await getCurrentUser(context)
        break
      case 'getUser': //                                                             400, 404, 403
        answer = await getUser(context, parseId(route.rawId ?? ''))
        break
      case 'updateUser': {
        assertJsonBody(request.headers) //                                           415
        const id = parseId(route.rawId ?? '') //                                     400: the path, then the body
        answer = await updateUser(context, id, parseUserPatch(body)) //              400, then 404, 403, 409
        break
      }
      case 'deleteUser': //                                                          400, 404, 403
        answer = await deleteUser(context, parseId(route.rawId ?? ''))
        break
    }
    reply.code(answer.status)
    if (answer.body === undefined) return reply.send()
    // For HEAD too: Node writes the headers GET would get (Content-Type, Content-Length), not the body.
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(answer.body))
  } catch (error) {
    const problem = toProblem(error)
    if (problem.status === 500) deps.log(`${method} ${path}: ${error instanceof Error ? error.stack : String(error)}`)
    reply.code(problem.status).headers(problem.headers).type('application/problem+json')
    return reply.send(JSON.stringify(problem.body))
  }
}

/** The path as sent and the query of a request target (origin-form, or absolute-form from a proxy). */
function splitTarget(target: string): { path: string; query: URLSearchParams } {
  const originForm = target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '')
  const questionMark = originForm.indexOf('?')
  if (questionMark === -1) return { path: originForm, query: new URLSearchParams() }
  return { path: originForm.slice(0, questionMark), query: new URLSearchParams(originForm.slice(questionMark + 1)) }
}
