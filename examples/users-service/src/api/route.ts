import { ApiError } from './problem.js'

export type OperationName = 'listUsers' | 'getCurrentUser' | 'getUser' | 'updateUser' | 'deleteUser'

export interface Route {
  operation: OperationName
  /** The id segment as sent, not decoded yet (a bad one is a 400, later in the order of checks). */
  rawId?: string
}

interface PathEntry {
  methods: Partial<Record<string, OperationName>>
  allow: string
}

const USERS: PathEntry = { methods: { GET: 'listUsers' }, allow: 'GET, HEAD' }
const ME: PathEntry = { methods: { GET: 'getCurrentUser' }, allow: 'GET, HEAD' }
const ONE_USER: PathEntry = {
  methods: { GET: 'getUser', PATCH: 'updateUser', DELETE: 'deleteUser' },
  allow: 'GET, HEAD, PATCH, DELETE',
}

/**
 * docs/contract.md §4: the operation a method and path name. Segments compare as sent; `me` is a fixed
 * segment, never an id; an empty segment is no id (`/api/users/` is no route).
 *
 * @throws ApiError NOT_FOUND for a path the API does not have, METHOD_NOT_ALLOWED (with Allow) for a
 *   method its path does not answer
 */
export function routeRequest(method: string, path: string): Route {
  const segments = path.split('/')
  let entry: PathEntry | undefined
  let rawId: string | undefined
  if (segments.length === 3 && segments[1] === 'api' && segments[2] === 'users') entry = USERS
  else if (segments.length === 4 && segments[1] === 'api' && segments[2] === 'users' && segments[3] === 'me') entry = ME
  else if (segments.length === 4 && segments[1] === 'api' && segments[2] === 'users' && segments[3] !== '') {
    entry = ONE_USER
    rawId = segments[3]
  }
  if (!entry) throw new ApiError('NOT_FOUND', `No route ${method} ${path}.`)
  // HEAD is GET without the body (RFC 9110 §9.3.2).
  const operation = entry.methods[method === 'HEAD' ? 'GET' : method]
  if (!operation) {
    throw new ApiError('METHOD_NOT_ALLOWED', `${path} does not answer ${method}.`, { headers: { allow: entry.allow } })
  }
  return rawId === undefined ? { operation } : { operation, rawId }
}
