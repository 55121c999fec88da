import type { Operation } from '../../spec/operations.js'
import { createPathMatcher, rawSegments } from '../../spec/path-templates.js'

/** The operation a method and a path (after the base URL's) address; none for a 404 or a 405. */
export type OperationMatcher = (method: string, pathname: string) => Operation | undefined

/**
 * Finds operations as the mock's router does (CONTRACT §4): the path first, literal segments winning
 * (`/api/users/me` is never `/api/users/{id}` with id `me`), then the method there. The path is
 * matched as sent: how a backend decodes `%6De` is its own choice.
 */
export function createOperationMatcher(operations: Operation[]): OperationMatcher {
  const findPath = createPathMatcher(operations.map((operation) => operation.path))
  return (method, pathname) => {
    const path = findPath(rawSegments(pathname))?.template.path
    // HEAD is GET without a body (RFC 9110 §9.3.2): it answers as the GET operation does.
    const wanted = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase()
    return operations.find((operation) => operation.path === path && operation.method === wanted)
  }
}
