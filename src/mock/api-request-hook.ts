import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify'
import type { AppError } from '../errors.js'
import { authenticate } from './authenticate.js'
import { methodNotAllowedError } from './operation-handlers.js'
import { delayAsAsked, failAsAsked, type SimulatedConditions } from './simulated-conditions.js'
import type { StateHolder } from './state-holder.js'

/** What one route of the users API knows of itself. */
export interface ApiRoute {
  /** The methods its path answers (a 405's `Allow`). */
  allow: string[]
  /** The error statuses its operation documents (what `Prefer: code=NNN` may ask for). */
  errorStatuses: number[]
}

export interface ApiRequestHookDependencies {
  state: StateHolder
  conditions: SimulatedConditions
  noRoute: (request: FastifyRequest) => AppError
}

/**
 * The first steps of every users-API request, in CONTRACT §3's order: the simulated delay,
 * authentication (401), then route and method (404, 405) before the body is read (413, 415, 400),
 * then the simulated failures. Attached to the API's routes only, with what each route knows.
 */
export function createApiRequestHook(dependencies: ApiRequestHookDependencies) {
  const { state, conditions, noRoute } = dependencies
  return (route: ApiRoute): onRequestAsyncHookHandler =>
    async function onApiRequest(request) {
      await delayAsAsked(request, conditions)
      request.caller = authenticate(request, state.store)
      // `/api/users/` routes to `{id}` with an empty id: no such route (CONTRACT §4), not a bad id.
      if (Object.values(request.params as Record<string, string>).includes('')) throw noRoute(request)
      if (!route.allow.includes(request.method === 'HEAD' ? 'GET' : request.method)) {
        throw methodNotAllowedError(request, route.allow)
      }
      failAsAsked(request, conditions, route.errorStatuses)
    }
}
