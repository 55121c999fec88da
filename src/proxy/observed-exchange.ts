import type { SentenceId } from '../contract/rules/contract-sentences.js'
import { requestHeaderOf, type Exchange } from '../contract/client/exchange.js'
import type { Credentials } from './read-credentials.js'

/**
 * One exchange the proxy forwarded, as its rules read it: the exchange verify's checks read (request,
 * answer, operation), who sent it, and when, on the proxy's clock: a count that every request's arrival
 * and every exchange's end moves on, so that rules can tell what happened before what.
 */
export interface ObservedExchange {
  exchange: Exchange
  credentials: Credentials
  /** The client's path, without the query, as the document writes paths (no upstream prefix). */
  path: string
  query: URLSearchParams
  /** The id of /api/users/{id} percent-decoded; undefined on other paths or when it does not decode. */
  userId?: string
  /** The request body's size in bytes. */
  requestBytes: number
  startedAt: number
  endedAt: number
  /** What a correct backend must answer from the request alone (judge-request.ts), if anything. */
  refusal?: Refusal
  /**
   * The request fails none of steps 2 to 5 of §3's order, as far as the whole request, read by the
   * proxy, shows (judge-request.ts): never true beside a refusal, nor where the contract leaves the
   * reading open.
   */
  valid: boolean
}

/** The first step of §3's order a request fails by itself, and what a correct backend answers it. */
export interface Refusal {
  /** 1 authentication, 2 route and method, 3 body size, 4 media type, 5 validation (§3's table). */
  step: 1 | 2 | 3 | 4 | 5
  /** The status that step answers. */
  status: number
  /** What is wrong with the request, for people. */
  why: string
  sentence: SentenceId
}

/** The user of a `{ "data": User }` answer, or of each item of a list: undefined when there is none. */
export function dataOf(observed: ObservedExchange): unknown {
  const body = observed.exchange.response.body
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as { data?: unknown }).data
    : undefined
}

/** The status of the answer. */
export function statusOf(observed: ObservedExchange): number {
  return observed.exchange.response.status
}

/** The operation the request addressed, by its operationId, if any. */
export function operationOf(observed: ObservedExchange): string | undefined {
  return observed.exchange.operation?.operationId
}

/** The caller's Bearer token, when the request carried one. */
export function tokenOf(observed: ObservedExchange): string | undefined {
  return observed.credentials.kind === 'bearer' ? observed.credentials.token : undefined
}

/** Whether the answer is a 2xx. */
export function succeeded(observed: ObservedExchange): boolean {
  const status = statusOf(observed)
  return status >= 200 && status <= 299
}

/**
 * Whether the request asks a mock for a simulated error, `Prefer: code=NNN` (docs/contract.md §7): the
 * answer is then the error asked for in the operation's place, which neither rules nor knowledge read.
 */
export function asksForAnError(observed: ObservedExchange): boolean {
  const prefer = requestHeaderOf(observed.exchange.request, 'prefer')
  return prefer !== undefined && /(?:^|[,;])\s*code\s*=/i.test(prefer)
}
