import { AppError } from '../errors.js'
import type { RoutedOperation } from '../spec/operation-table.js'
import { createPathMatcher, MALFORMED, routedMethod, type Segment } from '../spec/path-templates.js'

export interface RouteMatch {
  operation: RoutedOperation
  /** Path parameters, decoded; MALFORMED where the segment could not be decoded (a 400 later). */
  params: Record<string, Segment>
}

interface PathRoute {
  /** The methods the path answers: those with a documented success (a 405's `Allow`). */
  allow: string[]
  byMethod: Map<string, RoutedOperation>
}

/**
 * The router of the document's operations. CONTRACT §4: a documented path answers its documented
 * methods; any other method there is a 405 with `Allow`; any other path is a 404. HEAD is routed as
 * GET. Which path a request addresses is src/spec/path-templates.ts's rule, the suite's too.
 */
export function createRouter(operations: RoutedOperation[]): (method: string, segments: Segment[]) => RouteMatch {
  const routes = toPathRoutes(operations)
  const findPath = createPathMatcher(routes.keys())
  return (method, segments) => {
    const found = findPath(segments)
    if (!found) throw noRoute(method, segments, operations)
    const route = routes.get(found.template.path) as PathRoute
    const operation = route.byMethod.get(routedMethod(method))
    if (!operation || !operation.succeeds) {
      throw new AppError('METHOD_NOT_ALLOWED', `${found.template.path} answers ${route.allow.join(', ')} only.`, {
        allow: route.allow,
      })
    }
    return { operation, params: found.params }
  }
}

function toPathRoutes(operations: RoutedOperation[]): Map<string, PathRoute> {
  const routes = new Map<string, PathRoute>()
  for (const operation of operations) {
    let route = routes.get(operation.path)
    if (!route) {
      route = { allow: [], byMethod: new Map() }
      routes.set(operation.path, route)
    }
    route.byMethod.set(operation.method, operation)
    if (operation.succeeds) route.allow.push(operation.method)
  }
  return routes
}

function noRoute(method: string, segments: Segment[], operations: RoutedOperation[]): AppError {
  const path = `/${segments.map((segment) => (segment === MALFORMED ? '%…' : segment)).join('/')}`
  const routes = operations
    .filter((operation) => operation.succeeds)
    .map((operation) => `${operation.method} ${operation.path}`)
  return new AppError(
    'NOT_FOUND',
    `No route ${method} ${path}. The users API answers ${routes.join(', ')} (docs/contract.md of users-api-kit).`,
  )
}
