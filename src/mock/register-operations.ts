import type {
  FastifyInstance,
  HTTPMethods,
  onRequestAsyncHookHandler,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify'
import type { OpenAPIV3_1 } from 'openapi-types'
import { allowedMethods, type Operation } from '../spec/operations.js'
import { assertJsonBody } from './body-parsing.js'
import { checkDecimalIntegers } from './decimal-integers.js'
import { methodNotAllowed, type OperationHandler } from './operation-handlers.js'
import type { ApiRoute } from './api-request-hook.js'
import type { StateHolder } from './state-holder.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The methods the route's path answers (`Allow` of a 405). */
    allow?: string[]
  }
}

export interface OperationRoutes {
  operations: Operation[]
  handlers: Record<string, OperationHandler>
  state: StateHolder
  /** The users API's first steps (authentication, 404/405, simulations), given what a route knows. */
  apiRequestHook: (route: ApiRoute) => onRequestAsyncHookHandler
}

/**
 * Methods a documented path answers 405 to when undocumented (OPTIONS is CORS's, HEAD follows GET).
 * TRACE and QUERY too: without a route they fell through to the 404 of unknown routes (found by
 * Schemathesis's unsupported_method check; CONTRACT §4: other methods on documented paths are 405).
 */
const REFUSED_METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE', 'QUERY']

/**
 * One Fastify route per operation of the document, with its parameter and body schemas taken from
 * the document, and a 405 with `Allow` for every other method on a documented path (CONTRACT §4).
 * Fails at start-up if an operation has no handler.
 */
export function registerOperations(
  app: FastifyInstance,
  { operations, handlers, state, apiRequestHook }: OperationRoutes,
): void {
  const missing = operations.filter((operation) => !handlers[operation.operationId])
  if (missing.length > 0) {
    throw new Error(
      `No handler for operation(s) ${missing.map((operation) => operation.operationId).join(', ')} of the document.`,
    )
  }
  // QUERY (the safe method with a body, RFC draft) is not one of Fastify's methods until added.
  if (!app.supportedMethods.includes('QUERY')) app.addHttpMethod('QUERY', { hasBody: true })
  for (const operation of operations) {
    const handler = handlers[operation.operationId] as OperationHandler
    const allow = allowedMethods(operations, operation.path)
    app.route({
      method: operation.method.toUpperCase() as HTTPMethods,
      url: toFastifyPath(operation.path),
      ...routeOptions(operation, allow),
      onRequest: apiRequestHook({ allow, errorStatuses: errorStatuses(operation) }),
      handler: toRouteHandler(handler, state, allow),
    })
  }
  for (const path of new Set(operations.map((operation) => operation.path))) {
    const documented = new Set(
      operations.filter((operation) => operation.path === path).map((operation) => operation.method.toUpperCase()),
    )
    const allow = allowedMethods(operations, path)
    const refused = REFUSED_METHODS.filter((method) => !documented.has(method))
    if (refused.length === 0) continue
    app.route({
      method: refused,
      url: toFastifyPath(path),
      config: { allow },
      onRequest: apiRequestHook({ allow, errorStatuses: [] }),
      handler: toRouteHandler(methodNotAllowed, state, allow),
    })
  }
}

/** A Fastify handler that gives an operation handler the current store and the caller. */
function toRouteHandler(handler: OperationHandler, state: StateHolder, allow: string[]): RouteHandlerMethod {
  return async (request, reply) =>
    handler({ request, reply, store: state.store, caller: request.caller as NonNullable<typeof request.caller>, allow })
}

/** `/api/users/{id}` → `/api/users/:id`. */
export function toFastifyPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1')
}

function routeOptions(operation: Operation, allow: string[]): RouteShorthandOptions {
  const schema: NonNullable<RouteShorthandOptions['schema']> = {}
  const querystring = parametersSchema(operation.parameters, 'query')
  const params = parametersSchema(operation.parameters, 'path')
  if (querystring) schema.querystring = querystring
  if (params) schema.params = params
  const body = operation.requestBody?.content?.['application/json']?.schema
  if (body) schema.body = body
  const preValidation = [body ? assertJsonBody : undefined, checkDecimalIntegers(operation.parameters)].filter(
    (hook) => hook !== undefined,
  )
  return {
    schema,
    config: { allow, jsonBody: body !== undefined },
    ...(preValidation.length > 0 ? { preValidation } : {}),
  }
}

/** The parameters of one location as one object schema, as Fastify validates them. */
function parametersSchema(parameters: OpenAPIV3_1.ParameterObject[], location: 'query' | 'path'): object | undefined {
  const selected = parameters.filter((parameter) => parameter.in === location)
  if (selected.length === 0) return undefined
  return {
    type: 'object',
    properties: Object.fromEntries(selected.map((parameter) => [parameter.name, parameter.schema ?? {}])),
    required: selected.filter((parameter) => parameter.required).map((parameter) => parameter.name),
  }
}

function errorStatuses(operation: Operation): number[] {
  return Object.keys(operation.responses)
    .map(Number)
    .filter((status) => status >= 400)
}
