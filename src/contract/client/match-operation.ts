import type { Operation } from '../../spec/operations.js'
import { createPathMatcher, rawSegments, routedMethod } from '../../spec/path-templates.js'

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
    // The document writes its methods in lower case, HTTP in upper case.
    const wanted = routedMethod(method.toUpperCase()).toLowerCase()
    return operations.find((operation) => operation.path === path && operation.method === wanted)
  }
}
