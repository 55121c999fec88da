import { hasNoContentByHttp } from '../../http/bodiless-answers.js'
import type { Operation } from '../../spec/operations.js'

/** One request the suite sent and the response it got: what every check reads. */
export interface Exchange {
  request: ExchangeRequest
  response: ExchangeResponse
  /** The operation of the document the request addressed, if any. */
  operation?: Operation
}

export interface ExchangeRequest {
  method: string
  url: string
  headers: Record<string, string>
  body?: string
  /** `latin1`: each character of `body` went as one byte (all below U+0100), bytes that need not be UTF-8. */
  bodyEncoding?: 'latin1'
}

export interface ExchangeResponse {
  status: number
  /** Lower-cased names. */
  headers: Record<string, string>
  text: string
  /** The parsed body when the media type is JSON (`application/json`, `application/problem+json`). */
  body?: unknown
  /**
   * Set when the client would not take the body whole: past --max-response-bytes (`text` is then its
   * first KiB) or JSON nested too deep to parse. The one finding of such an exchange (unusable-answer.ts).
   */
  refused?: RefusedBody
}

export interface RefusedBody {
  limit: 'size' | 'depth' | 'values'
  /** In words: `a body over 1 MiB (1048576 bytes) after decompression; the kit reads no further …`. */
  reason: string
}

/** `application/problem+json; charset=utf-8` → `application/problem+json`. */
export function mediaTypeOf(response: ExchangeResponse): string | undefined {
  return response.headers['content-type']?.split(';')[0]?.trim().toLowerCase()
}

/** Whether a media type carries JSON: `application/json`, `application/problem+json`, … */
export function isJsonMediaType(mediaType: string | undefined): boolean {
  return mediaType !== undefined && /[/+]json$/.test(mediaType)
}

/** A request header, whatever the case of its name (`Authorization` or `authorization`). */
export function requestHeaderOf(request: ExchangeRequest, name: string): string | undefined {
  const wanted = name.toLowerCase()
  return Object.entries(request.headers).find(([key]) => key.toLowerCase() === wanted)?.[1]
}

/** The path a request addressed, without its query: `/api/users/me`. */
export function pathnameOf(request: ExchangeRequest): string {
  return new URL(request.url, 'http://target.invalid').pathname
}

/**
 * The path of the document the exchange addressed (`/api/users/{id}`), or the concrete path when it
 * matched no operation.
 */
export function documentedPathOf(exchange: Exchange): string {
  return exchange.operation?.path ?? pathnameOf(exchange.request)
}

/** HEAD answers, 204 and 304 have no body by HTTP (RFC 9110 §6.4.1): body rules do not apply. */
export function hasNoBodyByHttp(exchange: Exchange): boolean {
  return hasNoContentByHttp(exchange.request.method, exchange.response.status)
}

/** Whether a media type is in a range of the document: `application/json` is in itself, `application/*`, `*\/*`. */
export function isInMediaRange(mediaType: string, range: string): boolean {
  const [type, subtype] = range.split(';')[0]?.trim().toLowerCase().split('/') ?? []
  const [receivedType, receivedSubtype] = mediaType.toLowerCase().split('/')
  return (type === '*' || type === receivedType) && (subtype === '*' || subtype === receivedSubtype)
}
