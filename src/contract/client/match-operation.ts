import type { Operation } from '../../spec/operations.js'

/**
 * The operation a method and path address. Literal segments win over templated ones, as routers do
 * (`/api/users/me` is not `/api/users/{id}` with id `me`, CONTRACT §4).
 */
export function matchOperation(operations: Operation[], method: string, pathname: string): Operation | undefined {
  const segments = pathname.split('/')
  // HEAD is GET without a body (RFC 9110 §9.3.2): it answers as the GET operation does.
  const wanted = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase()
  const candidates = operations
    .filter((operation) => operation.method === wanted)
    .map((operation) => ({ operation, score: scorePath(operation.path.split('/'), segments) }))
    .filter((candidate) => candidate.score >= 0)
    .sort((a, b) => b.score - a.score)
  return candidates[0]?.operation
}

/** -1 when the template does not match; otherwise the count of literal segments that matched. */
function scorePath(template: string[], segments: string[]): number {
  if (template.length !== segments.length) return -1
  let literals = 0
  for (const [index, part] of template.entries()) {
    const segment = segments[index] ?? ''
    if (/^\{[^}]+\}$/.test(part)) {
      if (segment === '') return -1
    } else if (part === segment) {
      literals += 1
    } else {
      return -1
    }
  }
  return literals
}
