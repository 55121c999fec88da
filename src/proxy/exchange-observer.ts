import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Exchange, ExchangeRequest, ExchangeResponse } from '../contract/client/exchange.js'
import { SERVER_ANSWERS } from '../contract/client/unusable-answer.js'
import { splitTarget } from '../http/request-target.js'
import type { Operation } from '../spec/operations.js'
import { createPathMatcher, isUnderApi, rawSegments } from '../spec/path-templates.js'
import { toFindingEntry, type FindingEntry } from './finding-entry.js'
import type { FindingLog } from './finding-log.js'
import { forwardExchange, type ExchangeLimits, type ForwardedExchange } from './forward-exchange.js'
import { endToEndHeaders } from './forwarded-headers.js'
import { toHeaderRecord } from '../http/header-record.js'
import type { ExchangeJudge, ProxyFinding } from './judge-exchange.js'
import type { Knowledge } from './knowledge.js'
import type { ObservedExchange } from './observed-exchange.js'
import { readCredentials, type Credentials } from './read-credentials.js'
import type { Upstream } from './upstream.js'

/** What the observer is given: the parts of one proxy. */
export interface ObserverParts {
  upstream: Upstream
  judge: ExchangeJudge
  knowledge: Knowledge
  log: FindingLog
  limits: ExchangeLimits
  onFinding?: (entry: FindingEntry) => void
}

/** One request as it arrived: where it goes in the document, and when, on the proxy's clock. */
interface Arrival {
  method: string
  target: string
  path: string
  rawQuery: string
  /** Whether it is the users API's (under /api, but OPTIONS): the only requests judged. */
  judged: boolean
  operation?: Operation
  userId?: string
  startedAt: number
  /** Whether the proxy read the whole request, promptly (judge-request.ts `whole`). */
  readWhole(): boolean
}

/**
 * The life of one exchange in the proxy, in order: note its arrival (a write may change a user from
 * now on), forward it (forward-exchange.ts), then, once the answer has ended, judge what the client sent
 * and what the upstream answered (judge-exchange.ts) and report each finding (stderr, page, reports).
 */
export class ExchangeObserver {
  /** The proxy's clock: moves on at every arrival and every end (observed-exchange.ts). */
  private clock = 0

  constructor(private readonly parts: ObserverParts) {}

  async observe(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const arrival = this.arrive(request)
    const forwarded = await forwardExchange(request, response, this.parts.upstream, this.parts.limits)
    const endedAt = ++this.clock
    this.parts.log.recordExchange(arrival.judged)
    if (arrival.judged) await this.judge(arrival, forwarded, endedAt)
  }

  private arrive(request: IncomingMessage): Arrival {
    const startedAt = ++this.clock
    const method = (request.method ?? 'GET').toUpperCase()
    const target = request.url ?? '/'
    const { path, query: rawQuery } = splitTarget(target)
    // docs/contract.md §4 and §7: the users API is under /api; OPTIONS is CORS's, and a request line and
    // headers near or past HTTP's 16 KiB are the HTTP server's to refuse, before the users API: neither
    // is the contract's.
    const judged = isUnderApi(rawSegments(path)) && method !== 'OPTIONS' && headSize(request) < HEAD_LIMIT
    if (!judged) return { method, target, path, rawQuery, judged, startedAt, readWhole: () => false }
    const operation = this.parts.judge.operationOf(method, path)
    const userId = operation && userIdOf(operation, path)
    this.parts.knowledge.begin(method, userId, startedAt)
    const arrivedAt = performance.now()
    let endedAt: number | undefined
    request.once('end', () => (endedAt = performance.now()))
    const readWhole = (): boolean =>
      request.complete && endedAt !== undefined && endedAt - arrivedAt <= PROMPT_REQUEST_MS
    return {
      method,
      target,
      path,
      rawQuery,
      judged,
      startedAt,
      readWhole,
      operation,
      ...(userId === undefined ? {} : { userId }),
    }
  }

  private async judge(arrival: Arrival, forwarded: ForwardedExchange, endedAt: number): Promise<void> {
    const { knowledge } = this.parts
    const credentials = readCredentials(forwarded.rawHeaders)
    const request = toExchangeRequest(this.parts.upstream, forwarded)
    const status = forwarded.response?.status
    const span = { startedAt: arrival.startedAt, endedAt }
    const abandon = (): void =>
      knowledge.abandon(arrival.method, arrival.userId, span, status !== undefined && status >= 400 && status <= 499)
    if (forwarded.clientGone) return abandon()
    if (forwarded.failure || !forwarded.response) {
      abandon()
      const exchange = this.exchangeOf(arrival, request, { status: status ?? 0, headers: {}, text: '' })
      return this.report(noAnswer(forwarded.failure?.reason ?? 'no answer'), exchange, arrival.target, credentials)
    }
    const outcome = await forwarded.response.copy
    const answer =
      'response' in outcome ? outcome.response : { status: forwarded.response.status, headers: {}, text: '' }
    const exchange = this.exchangeOf(arrival, request, answer)
    const unchecked = 'unchecked' in outcome ? outcome.unchecked : answer.refused?.reason
    if (unchecked !== undefined) {
      abandon()
      return this.report(notChecked(unchecked), exchange, arrival.target, credentials)
    }
    let findings: ProxyFinding[]
    try {
      findings = this.parts.judge.judge(this.toObserved(arrival, forwarded, exchange, credentials, endedAt))
    } catch (error) {
      // A fault of the proxy's own: said on the exchange it happened on, never a silent gap.
      abandon()
      findings = [notChecked(`the proxy failed to judge it (${(error as Error).message})`)]
    }
    for (const finding of findings) this.report(finding, exchange, arrival.target, credentials)
  }

  private toObserved(
    arrival: Arrival,
    forwarded: ForwardedExchange,
    exchange: Exchange,
    credentials: Credentials,
    endedAt: number,
  ): ObservedExchange {
    const body = bodyWithin(forwarded)
    const { refusal, valid } = this.parts.judge.judgeRequest({
      request: exchange.request,
      credentials,
      path: arrival.path,
      rawQuery: arrival.rawQuery,
      bodyBytes: bodyBytesOf(forwarded),
      whole: arrival.readWhole(),
      ...(exchange.operation ? { operation: exchange.operation } : {}),
      ...(body === undefined ? {} : { body }),
    })
    return {
      exchange,
      credentials,
      path: arrival.path,
      query: new URLSearchParams(arrival.rawQuery),
      requestBytes: bodyBytesOf(forwarded),
      startedAt: arrival.startedAt,
      endedAt,
      ...(arrival.userId === undefined ? {} : { userId: arrival.userId }),
      ...(refusal === undefined ? {} : { refusal }),
      valid,
    }
  }

  private exchangeOf(arrival: Arrival, request: ExchangeRequest, response: ExchangeResponse): Exchange {
    return { request, response, ...(arrival.operation ? { operation: arrival.operation } : {}) }
  }

  /** A finding, its tokens masked (the request's own and every one the proxy knows), to the log and onward. */
  private report(finding: ProxyFinding, exchange: Exchange, target: string, credentials: Credentials): void {
    const { log, knowledge, onFinding } = this.parts
    const own = credentials.kind === 'bearer' ? [credentials.token] : []
    const entry = toFindingEntry(finding, exchange, target, [...own, ...knowledge.callers.tokens()], log.claimId())
    log.add(entry)
    onFinding?.(entry)
  }
}

/**
 * docs/contract.md §7: node's HTTP parser, the mock's, refuses a request line and headers over 16 KiB
 * before the users API sees them. The proxy leaves a KiB of margin: its count of the bytes and a
 * server's need not agree to the byte.
 */
const HEAD_LIMIT = 15 * 1024

/**
 * A request that took longer than this to arrive whole may have met a server's own timeout for slow
 * requests (node's answers them 400 or 408, docs/contract.md §7): the proxy leaves its verdict open.
 */
const PROMPT_REQUEST_MS = 2_000

/** The bytes of a request's request line and headers, as sent. */
function headSize(request: IncomingMessage): number {
  const line = `${request.method ?? ''} ${request.url ?? ''} HTTP/1.1\r\n`.length
  return request.rawHeaders.reduce((total, part) => total + Buffer.byteLength(part) + 2, line + 2)
}

/** verify's own words for an exchange with no answer (contract-client.ts `noResponse`). */
function noAnswer(reason: string): ProxyFinding {
  return {
    kind: 'violation',
    check: SERVER_ANSWERS.name,
    rule: SERVER_ANSWERS.rule,
    message: `Received: ${reason}`,
    sentences: [],
  }
}

function notChecked(reason: string): ProxyFinding {
  return {
    kind: 'unchecked',
    check: 'not-checked',
    rule: 'An answer the proxy cannot read within its limits is forwarded whole, and not checked',
    message: `Received: ${reason}`,
    sentences: [],
  }
}

/** The id of /api/users/{id}, percent-decoded; undefined where there is none or it does not decode. */
export function userIdOf(operation: Operation, path: string): string | undefined {
  const id = createPathMatcher([operation.path])(rawSegments(path))?.params['id']
  if (typeof id !== 'string') return undefined
  try {
    return decodeURIComponent(id)
  } catch {
    return undefined
  }
}

/** The request body's size: as sent, or as declared when it was never asked for (Expect: 100-continue). */
function bodyBytesOf(forwarded: ForwardedExchange): number {
  return forwarded.unsentBodyBytes ?? forwarded.body.total
}

/** The request body, when it is within the users API's limit: past it, only its size is known. */
function bodyWithin(forwarded: ForwardedExchange): Uint8Array | undefined {
  return forwarded.body.over ? undefined : forwarded.body.bytes()
}

/** The request as verify's checks and reports read it: sent to the upstream, its body as text. */
function toExchangeRequest(upstream: Upstream, forwarded: ForwardedExchange): ExchangeRequest {
  // Host names the upstream, which curl writes itself from the URL.
  const raw = endToEndHeaders(forwarded.rawHeaders)
  const headers = toHeaderRecord(raw.filter((_, index) => raw[index - (index % 2)]?.toLowerCase() !== 'host'))
  const request: ExchangeRequest = {
    method: forwarded.method.toUpperCase(),
    url: `${upstream.url}${forwarded.target}`,
    headers,
  }
  const body = bodyWithin(forwarded)
  if (body === undefined || body.byteLength === 0) return request
  try {
    request.body = new TextDecoder('utf-8', { fatal: true }).decode(body)
  } catch {
    // Bytes that are not UTF-8 stay bytes: the report's curl sends them as they were (to-curl.ts).
    request.body = Buffer.from(body).toString('latin1')
    request.bodyEncoding = 'latin1'
  }
  return request
}
