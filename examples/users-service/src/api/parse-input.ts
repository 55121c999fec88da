import type { IncomingHttpHeaders } from 'node:http'
import { ROLES, type Role } from '../users/permissions.js'
import { ApiError, pointerTo, type Issue } from './problem.js'

// docs/contract.md §3 step 5 and §4: what a request says, checked before the database is asked.

/** Longest id, in code points once decoded; a longer one cannot be an id (400), a shorter unknown one is a 404. */
const MAX_ID_LENGTH = 4096
const MAX_SEARCH_LENGTH = 100
const MAX_NAME_LENGTH = 100
const MAX_PAGE = 2n ** 53n - 1n
const MAX_LIMIT = 100

export interface ListParameters {
  page: bigint
  limit: number
  role?: Role
  search?: string
}

export interface UserPatch {
  name?: string
  role?: Role
  status?: 'ACTIVE' | 'SUSPENDED'
}

/** The id of /api/users/{id}, percent-decoded. */
export function parseId(rawId: string): string {
  let id: string
  try {
    id = decodeURIComponent(rawId)
  } catch {
    throw invalid([{ in: 'path', path: '/id', message: 'is not validly percent-encoded UTF-8' }])
  }
  if (codePoints(id) > MAX_ID_LENGTH) {
    throw invalid([{ in: 'path', path: '/id', message: `is longer than ${MAX_ID_LENGTH} characters` }])
  }
  return id
}

/**
 * page, limit, role and search of the list, each given at most once. Integers are decimal digits only
 * (no sign, exponent or point) and are never clamped; unknown parameters are ignored.
 */
export function parseListQuery(query: URLSearchParams): ListParameters {
  const issues: Issue[] = []
  const single = (name: string): string | undefined => {
    const values = query.getAll(name)
    if (values.length > 1) issues.push({ in: 'query', path: pointerTo(name), message: 'is given more than once' })
    return values.length === 1 ? values[0] : undefined
  }
  const integer = (name: string, max: bigint): bigint | undefined => {
    const text = single(name)
    if (text === undefined) return undefined
    const value = /^[0-9]+$/.test(text) ? BigInt(text) : undefined
    if (value === undefined || value < 1n || value > max) {
      issues.push({ in: 'query', path: pointerTo(name), message: `must be an integer from 1 to ${max}` })
    }
    return value
  }
  const page = integer('page', MAX_PAGE) ?? 1n
  const limit = integer('limit', BigInt(MAX_LIMIT)) ?? 20n
  const role = single('role')
  if (role !== undefined && !ROLES.includes(role as Role)) {
    issues.push({ in: 'query', path: '/role', message: `must be one of ${ROLES.join(', ')}` })
  }
  const search = single('search')
  if (search !== undefined && codePoints(search) > MAX_SEARCH_LENGTH) {
    issues.push({ in: 'query', path: '/search', message: `must be at most ${MAX_SEARCH_LENGTH} characters` })
  }
  if (issues.length > 0) throw invalid(issues)
  return {
    page,
    limit: Number(limit),
    ...(role === undefined ? {} : { role: role as Role }),
    ...(search === undefined ? {} : { search }),
  }
}

/** A body the operation reads is application/json, without a content coding. */
export function assertJsonBody(headers: IncomingHttpHeaders): void {
  const mediaType = headers['content-type']?.split(';')[0]?.trim().toLowerCase()
  if (mediaType !== 'application/json') {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as Content-Type: application/json.')
  }
  const coding = headers['content-encoding']?.trim().toLowerCase()
  if (coding !== undefined && coding !== '' && coding !== 'identity') {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Content-Encoding ${coding} is not accepted; send the body as it is.`)
  }
}

/** The body of a PATCH: a JSON object with at least one of name, role and status and no other key. The name is trimmed. */
export function parseUserPatch(body: Buffer): UserPatch {
  const json = parseJson(body)
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw invalid([{ in: 'body', path: '', message: 'must be a JSON object' }])
  }
  const fields = json as Record<string, unknown>
  const issues: Issue[] = []
  const patch: UserPatch = {}
  for (const [key, value] of Object.entries(fields)) {
    const issue = (message: string) => issues.push({ in: 'body', path: pointerTo(key), message })
    if (key === 'name') {
      const name = typeof value === 'string' ? value.trim() : undefined
      if (name === undefined) issue('must be a string')
      // PostgreSQL's text holds neither, and the name is never stored other than as sent (see
      // docs/implementing.md of users-api-kit: the contract's names allow both).
      else if (name.includes('\u0000') || /\p{Cs}/u.test(name)) issue('must not hold U+0000 or an unpaired surrogate')
      else if (codePoints(name) < 1 || codePoints(name) > MAX_NAME_LENGTH)
        issue(`must hold 1 to ${MAX_NAME_LENGTH} characters once trimmed`)
      else patch.name = name
    } else if (key === 'role') {
      if (ROLES.includes(value as Role)) patch.role = value as Role
      else issue(`must be one of ${ROLES.join(', ')}`)
    } else if (key === 'status') {
      if (value === 'ACTIVE' || value === 'SUSPENDED') patch.status = value
      else issue('must be ACTIVE or SUSPENDED')
    } else {
      issue('is not a field a PATCH can set (name, role, status)')
    }
  }
  if (Object.keys(fields).length === 0)
    issues.push({ in: 'body', path: '', message: 'give at least one of name, role, status' })
  if (issues.length > 0) throw invalid(issues)
  return patch
}

function parseJson(body: Buffer): unknown {
  if (body.length === 0) throw invalid([{ in: 'body', path: '', message: 'a JSON body is required' }])
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body)
  } catch {
    throw invalid([{ in: 'body', path: '', message: 'is not UTF-8' }])
  }
  try {
    return JSON.parse(text)
  } catch {
    throw invalid([{ in: 'body', path: '', message: 'is not JSON' }])
  }
}

function invalid(issues: Issue[]): ApiError {
  return new ApiError('VALIDATION_FAILED', 'The request is not valid.', { issues })
}

/** Lengths count Unicode code points (docs/contract.md, "characters"). */
function codePoints(text: string): number {
  return [...text].length
}
