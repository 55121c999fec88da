import type { SentenceId } from '../contract/rules/contract-sentences.js'
import type { Operation } from '../spec/operations.js'
import { JsonTooDeep, parseBoundedJson } from '../text/json-depth.js'
import { requestHeaderOf, type ExchangeRequest } from '../contract/client/exchange.js'
import { BODY_LIMIT, isJsonMediaType, MAX_ID_LENGTH } from '../spec/contract-limits.js'
import type { RoutedOperation, Validator } from '../spec/operation-table.js'
import { createPathMatcher, rawSegments, type Segment } from '../spec/path-templates.js'
import { toValidationIssue } from '../spec/schema-issues.js'
import type { Refusal } from './observed-exchange.js'
import type { Credentials } from './read-credentials.js'

/** What the request judge reads of one request. */
export interface RequestToJudge {
  request: ExchangeRequest
  operation?: Operation
  credentials: Credentials
  /** The client's path, without the upstream's prefix or the query. */
  path: string
  /** The query as the client wrote it, without the `?`. */
  rawQuery: string
  /** The body's size, and its bytes when within the 16 KiB limit. */
  bodyBytes: number
  body?: Uint8Array
  /**
   * Whether the proxy read the whole request, promptly: a body cut short, or one that took long enough
   * to meet a server's own timeout (docs/contract.md §7), leaves the request's verdict open. Default true.
   */
  whole?: boolean
}

/**
 * What the request alone says: `refusal`, the first step of §3's order it fails; `valid`, it fails none
 * of steps 2 to 5 as the contract reads them (the proxy read all of it, and nothing about it is left
 * open); neither, when the contract leaves its answer open or the proxy could not read it all.
 */
export interface RequestVerdict {
  refusal?: Refusal
  valid: boolean
}

/** A part of the request whose reading the contract leaves to the backend. */
const OPEN = 'open'

/**
 * The first step of docs/contract.md §3's order that a request fails by itself, with the answer a
 * correct backend gives it: the client's own mistake, which the proxy reports as the client's (never as
 * the backend's) and holds the backend's answer to. Steps 6 to 8 depend on the backend's state, which
 * the request alone does not show. Open (neither refused nor valid) when the contract leaves its answer
 * open (a second Authorization header, a query that does not percent-decode) or the proxy did not read
 * the request whole.
 */
export class RequestJudge {
  private readonly routed: Map<string, RoutedOperation>
  private readonly findPath: ReturnType<typeof createPathMatcher>

  constructor(routed: RoutedOperation[]) {
    this.routed = new Map(routed.map((operation) => [operation.operationId, operation]))
    this.findPath = createPathMatcher(routed.map((operation) => operation.path))
  }

  judge(request: RequestToJudge): RequestVerdict {
    const found = this.firstRefusal(request)
    if (found === OPEN) return { valid: false }
    if (found) return { refusal: found, valid: false }
    return { valid: request.whole !== false }
  }

  private firstRefusal(request: RequestToJudge): Refusal | typeof OPEN | undefined {
    const credentials = this.judgeCredentials(request.credentials)
    if (credentials === null) return OPEN
    if (credentials !== 'fine') return credentials
    const { operation } = request
    const routed = operation && this.routed.get(operation.operationId)
    if (!operation || !routed) return this.judgeRoute(request.path)
    // PATCH and DELETE on /api/users/me: operations whose only answer is 405 (docs/contract.md §4).
    if (!operation.succeeds)
      return refuse(2, 405, '§4.me.405', `${operation.method.toUpperCase()} ${operation.path} is never allowed`)
    if (request.bodyBytes > BODY_LIMIT)
      return refuse(3, 413, '§4.bodies.413', `a body of ${request.bodyBytes} bytes, over 16 KiB (${BODY_LIMIT} bytes)`)
    if (routed.jsonBody) {
      const mediaType = judgeMediaType(request.request)
      if (mediaType) return mediaType
    }
    return (
      judgePath(routed, this.findPath(rawSegments(request.path))?.params ?? {}) ??
      judgeQuery(routed, request.rawQuery) ??
      // A body cut short or late: what the backend read of it is not known.
      (request.whole === false ? OPEN : judgeBody(routed, request.body))
    )
  }

  /** Step 1: 'fine', a refusal, or null when the contract leaves the answer open. */
  private judgeCredentials(credentials: Credentials): Refusal | 'fine' | null {
    if (credentials.kind === 'repeated') return null
    if (credentials.kind === 'missing') return refuse(1, 401, '§2.missing-header', 'no Authorization header')
    if (credentials.kind === 'other-scheme')
      return refuse(1, 401, '§2.other-scheme', 'an Authorization header whose scheme is not Bearer')
    if (credentials.kind === 'empty') return refuse(1, 401, '§2.empty-token', 'an empty Bearer token')
    return 'fine'
  }

  /** Step 2: a path the document has with another method is a 405; any other path under /api, a 404. */
  private judgeRoute(path: string): Refusal {
    return this.findPath(rawSegments(path)) !== undefined
      ? refuse(2, 405, '§4.other.405', 'a method the document does not give this path')
      : refuse(2, 404, '§4.other.404', 'a path under /api that the document does not have')
  }
}

/** Step 4: the operation reads a JSON body; anything else, or a coding, is a 415. */
function judgeMediaType(request: ExchangeRequest): Refusal | undefined {
  const contentType = requestHeaderOf(request, 'content-type')
  if (!isJsonMediaType(contentType))
    return refuse(
      4,
      415,
      '§4.patch.415',
      contentType === undefined ? 'no Content-Type' : `Content-Type: ${contentType}`,
    )
  const coding = requestHeaderOf(request, 'content-encoding')?.trim().toLowerCase()
  if (coding !== undefined && coding !== '' && coding !== 'identity')
    return refuse(4, 415, '§4.patch.content-encoding', `Content-Encoding: ${coding}`)
  return undefined
}

/** Step 5, the path: an id that is not validly percent-encoded, or longer than 4,096 characters. */
function judgePath(routed: RoutedOperation, raw: Record<string, Segment>): Refusal | undefined {
  if (routed.pathParameters.length === 0) return undefined
  const params: Record<string, string> = {}
  for (const [name, segment] of Object.entries(raw)) {
    try {
      params[name] = decodeURIComponent(segment as string)
    } catch {
      return refuse(5, 400, '§3.invalid-id', `the ${name} "${String(segment)}" is not validly percent-encoded`)
    }
    if ([...(params[name] as string)].length > MAX_ID_LENGTH)
      return refuse(5, 400, '§3.invalid-id', `an ${name} longer than ${MAX_ID_LENGTH} characters`)
  }
  return firstIssue(routed.validate.path, params, 'path', '§3.invalid-id')
}

/** Step 5, the query: the operation's own parameters; the others are ignored (docs/contract.md §4). */
function judgeQuery(routed: RoutedOperation, rawQuery: string): Refusal | typeof OPEN | undefined {
  if (routed.queryParameters.length === 0) return undefined
  // A query that does not percent-decode to UTF-8: how a backend reads it is its own affair.
  if (!decodesCleanly(rawQuery)) return OPEN
  const search = new URLSearchParams(rawQuery)
  const query: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  for (const { name, integer } of routed.queryParameters) {
    const values = search.getAll(name)
    if (values.length === 0) continue
    if (values.length > 1)
      return refuse(5, 400, '§4.list.repeated', `the parameter ${name} given ${values.length} times`)
    const value = values[0] as string
    if (!integer) query[name] = value
    else if (!/^-?\d+$/.test(value))
      return refuse(5, 400, '§4.list.decimal', `${name}=${value}, not an integer in decimal digits`)
    else if (!Number.isSafeInteger(Number(value)))
      return refuse(5, 400, '§4.list.out-of-range', `${name}=${value}, past 2^53 − 1`)
    else query[name] = Number(value)
  }
  const validate = routed.validate.query
  if (!validate || validate(query)) return undefined
  const [error] = validate.errors ?? []
  const name = error?.instancePath.slice(1) ?? ''
  const issue = error ? toValidationIssue(error, 'query') : undefined
  const why = `${name}=${String(query[name])} ${issue?.message ?? 'is invalid'}`
  return refuse(5, 400, querySentence(name, query[name]), why)
}

/** The sentence a bad value of a list parameter breaks. */
function querySentence(name: string, value: unknown): SentenceId {
  if (name === 'role')
    return typeof value === 'string' && /^[a-z_]+$/i.test(value) && value !== value.toUpperCase()
      ? '§4.list.enum-case'
      : '§4.list.role'
  if (name === 'search') return '§4.list.search'
  if (name === 'page') return '§4.list.page'
  if (name === 'limit') return '§4.list.limit'
  return '§4.list.out-of-range'
}

/** Step 5, the body: UTF-8, JSON, an object of the document's schema (docs/contract.md §4, PATCH). */
function judgeBody(routed: RoutedOperation, body: Uint8Array | undefined): Refusal | typeof OPEN | undefined {
  const validate = routed.validate.body
  if (!routed.jsonBody || !validate) return undefined
  if (body === undefined) return OPEN
  if (body.byteLength === 0) return refuse(5, 400, '§4.patch.400', 'no body')
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body)
  } catch {
    return refuse(5, 400, '§4.patch.400', 'a body whose bytes are not UTF-8')
  }
  let value: unknown
  try {
    value = parseBoundedJson(text)
  } catch (error) {
    // Nested past what the kit parses: no backend is held to an answer about it.
    if (error instanceof JsonTooDeep) return OPEN
    return refuse(5, 400, '§4.patch.400', 'a body that is not JSON')
  }
  const status = (value as { status?: unknown } | null)?.status
  const sentence = status === 'INVITED' ? '§4.patch.status-values' : '§4.patch.400'
  return firstIssue(validate, value, 'body', sentence)
}

function firstIssue(
  validate: Validator | undefined,
  value: unknown,
  part: 'path' | 'body',
  sentence: SentenceId,
): Refusal | undefined {
  if (!validate || validate(value)) return undefined
  const [error] = validate.errors ?? []
  const issue = error ? toValidationIssue(error, part) : undefined
  return refuse(5, 400, sentence, `${part} ${issue?.path || '(the whole)'} ${issue?.message ?? 'is invalid'}`)
}

/** Whether every %-escape of a query is well formed and decodes to UTF-8. */
function decodesCleanly(rawQuery: string): boolean {
  try {
    for (const part of rawQuery.split(/[&=]/)) decodeURIComponent(part.replaceAll('+', ' '))
    return true
  } catch {
    return false
  }
}

function refuse(step: Refusal['step'], status: number, sentence: SentenceId, why: string): Refusal {
  return { step, status, sentence, why }
}
