import { AppError } from '../errors.js'
import type { RoutedOperation } from '../spec/operation-table.js'

/** A path segment that is not validly percent-encoded: it can stand for a parameter, never be one. */
export const MALFORMED = Symbol('malformed segment')

export interface RouteMatch {
  operation: RoutedOperation
  /** Path parameters, decoded; MALFORMED where the segment could not be decoded (a 400 later). */
  params: Record<string, string | typeof MALFORMED>
}

interface PathRoute {
  template: string
  /** Literal segments as strings, parameters as their names wrapped in `{}`. */
  segments: string[]
  /** The methods the path answers: those with a documented success (a 405's `Allow`). */
  allow: string[]
  byMethod: Map<string, RoutedOperation>
}

/** Splits a request path into decoded segments; MALFORMED where percent-decoding fails. */
export function decodeSegments(path: string): Array<string | typeof MALFORMED> {
  return path
    .split('/')
    .slice(1)
    .map((segment) => {
      try {
        return decodeURIComponent(segment)
        // Stryker disable next-line BlockStatement: an undefined segment is refused by the path schema just the same (400 /id)
      } catch {
        return MALFORMED
      }
    })
}

/**
 * The router of the document's operations. CONTRACT §4: a documented path answers its documented
 * methods; any other method there is a 405 with `Allow`; any other path is a 404. HEAD is routed as
 * GET. Literal segments win over parameters, so `/api/users/me` is never looked up as an id.
 */
export function createRouter(
  operations: RoutedOperation[],
): (method: string, segments: ReturnType<typeof decodeSegments>) => RouteMatch {
  const routes = toPathRoutes(operations)
  return (method, segments) => {
    const found = routes.find((route) => matches(route, segments))
    if (!found) throw noRoute(method, segments, operations)
    const operation = found.byMethod.get(method === 'HEAD' ? 'GET' : method)
    if (!operation || !operation.succeeds) {
      throw new AppError('METHOD_NOT_ALLOWED', `${found.template} answers ${found.allow.join(', ')} only.`, {
        allow: found.allow,
      })
    }
    const params: RouteMatch['params'] = {}
    found.segments.forEach((segment, index) => {
      if (isParameter(segment)) params[segment.slice(1, -1)] = segments[index] as string | typeof MALFORMED
    })
    return { operation, params }
  }
}

function toPathRoutes(operations: RoutedOperation[]): PathRoute[] {
  const routes = new Map<string, PathRoute>()
  for (const operation of operations) {
    let route = routes.get(operation.path)
    if (!route) {
      route = { template: operation.path, segments: operation.path.split('/').slice(1), allow: [], byMethod: new Map() }
      routes.set(operation.path, route)
    }
    route.byMethod.set(operation.method, operation)
    if (operation.succeeds) route.allow.push(operation.method)
  }
  const literals = (route: PathRoute): number => route.segments.filter((segment) => !isParameter(segment)).length
  return [...routes.values()].sort((a, b) => literals(b) - literals(a))
}

function matches(route: PathRoute, segments: ReturnType<typeof decodeSegments>): boolean {
  if (route.segments.length !== segments.length) return false
  return route.segments.every((expected, index) => {
    const actual = segments[index]
    // An empty segment is no parameter: `/api/users/` is no route (CONTRACT §4), not a bad id.
    if (isParameter(expected)) return actual !== ''
    return actual === expected
  })
}

function isParameter(segment: string): boolean {
  // Stryker disable next-line LogicalOperator,StringLiteral: no template of the document has a brace but around a parameter
  return segment.startsWith('{') && segment.endsWith('}')
}

function noRoute(method: string, segments: ReturnType<typeof decodeSegments>, operations: RoutedOperation[]): AppError {
  const path = `/${segments.map((segment) => (segment === MALFORMED ? '%…' : segment)).join('/')}`
  const routes = operations
    .filter((operation) => operation.succeeds)
    .map((operation) => `${operation.method} ${operation.path}`)
  return new AppError(
    'NOT_FOUND',
    `No route ${method} ${path}. The users API answers ${routes.join(', ')} (docs/contract.md of users-api-kit).`,
  )
}
