import type { LoadedSpec } from '../../spec/load-spec.js'
import { listOperations, type Operation } from '../../spec/operations.js'
import { DEFAULT_MAX_RESPONSE_BYTES } from '../../http/response-limits.js'
import type { IncomingAnswer, Transport } from '../../http/transport.js'
import { defaultTransport } from './default-transport.js'
import { createExchangeChecker, type ExchangeChecker, type ResponseCheck } from './check-exchange.js'
import { ContractViolation, type Finding, type ReportOptions } from './contract-violation.js'
import { requestHeaderOf, type Exchange, type ExchangeRequest } from './exchange.js'
import { createOperationMatcher, type OperationMatcher } from './match-operation.js'
import type { SuiteLayer } from './response-schemas.js'
import { SilenceGuard } from './silence-guard.js'
import { toResponse } from './to-response.js'
import { describeTransportFailure } from './transport-failure.js'
import { findUnusableAnswer, SERVER_ANSWERS } from './unusable-answer.js'

export interface SendOptions {
  method?: string
  /** Path and query, e.g. `/api/users?limit=5`. */
  path: string
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string
  headers?: Record<string, string>
  /** Sent as JSON with `Content-Type: application/json`. */
  json?: unknown
  /** Sent as is (with whatever Content-Type `headers` give). */
  body?: string
  /** Sends `body` with no Content-Type at all (else a string body without one goes as `text/plain;charset=UTF-8`, as fetch sends it). */
  withoutContentType?: boolean
  /** Sends each character of `body` as one byte (all below U+0100): how a check sends bytes that are not UTF-8. */
  latin1?: boolean
  /** Ends the request before its timeout: a check that holds its evidence waits no longer for the answer. */
  signal?: AbortSignal
}

export interface ContractClientOptions {
  baseUrl: string
  spec: LoadedSpec
  checks: ResponseCheck[]
  layer?: SuiteLayer
  /** Per request, the whole answer to its last byte (default 10 s). */
  timeoutMs?: number
  /** Per answer, after decompression (default 1 MiB): past it the body is not read further. */
  maxResponseBytes?: number
  /** What reports may show; tokens are masked unless `showSecrets`. */
  report?: ReportOptions
  /** How requests go out: this thread's default transport (node:http's) unless given. */
  transport?: Transport
}

/** Answers a request got when it got none; `status` 0 is how reports show it. */
const NO_RESPONSE = { status: 0, headers: {}, text: '' }

/**
 * The suite's only way to the API (and to a mock's control routes): sends a request, reads the answer
 * within the run's limits, records the exchange, and runs every response-level check on it
 * (check-exchange.ts), so that every scenario also checks conformance. A broken check throws a
 * ContractViolation, a bug report with a curl to reproduce it.
 *
 * @example
 * const me = await client.send({ path: '/api/users/me', token: target.actors.owner.token })
 */
export class ContractClient {
  readonly operations: Operation[]
  /** The operation a method and path address, as the mock's router finds it. */
  readonly operationOf: OperationMatcher
  private readonly checkExchange: ExchangeChecker
  private readonly silence = new SilenceGuard()

  constructor(private readonly options: ContractClientOptions) {
    this.operations = listOperations(options.spec.dereferenced)
    this.operationOf = createOperationMatcher(this.operations)
    this.checkExchange = createExchangeChecker(options.checks, options.layer)
  }

  async send(options: SendOptions): Promise<Exchange> {
    const { exchange, findings } = await this.sendAndCheck(options)
    if (findings.length > 0) throw this.violation(findings, exchange)
    return exchange
  }

  /**
   * Sends a request and runs the response-level checks without throwing what they find: the caller
   * reports the findings (the contract suite, after the rule its check is about). No answer, and an
   * answer no check can read (a redirect, an HTML page, one past the limits), still throw at once.
   */
  async sendAndCheck(options: SendOptions): Promise<{ exchange: Exchange; findings: Finding[] }> {
    const exchange = await this.exchange(options)
    const unusable = findUnusableAnswer(exchange)
    if (unusable) throw this.violation([unusable], exchange)
    return { exchange, findings: this.checkExchange(exchange) }
  }

  /**
   * Sends a request that is not the users API's (a mock's control routes, `/__mock/…`): its answer is
   * read as every answer is, within the run's timeout and limits, and no answer throws as it does for
   * `send`; the users API's response checks do not apply to it, so the caller judges what came.
   */
  async sendOutsideTheApi(options: SendOptions): Promise<Exchange> {
    return this.exchange(options)
  }

  /** A bug report for findings on an exchange, with this run's masking of secrets. */
  violation(findings: Finding[], exchange: Exchange): ContractViolation {
    return new ContractViolation(findings, exchange, this.options.report)
  }

  private async exchange(options: SendOptions): Promise<Exchange> {
    const request = toRequest(this.options.baseUrl, options)
    // A base URL may carry a path prefix (`https://host/v2`): the document's paths follow it.
    const basePath = new URL(this.options.baseUrl).pathname.replace(/\/+$/, '')
    const pathname = new URL(request.url).pathname.slice(basePath.length)
    const operation = this.operationOf(request.method, pathname)
    const stop = this.silence.reasonToStop()
    if (stop) throw this.noResponse({ request, response: NO_RESPONSE, operation }, `nothing, not sent: ${stop}`)
    const timeoutMs = this.options.timeoutMs ?? 10_000
    let response: IncomingAnswer | undefined
    try {
      const send = this.options.transport ?? defaultTransport()
      // One deadline for the whole exchange: the signal also ends the reading of the body.
      response = await send({
        method: request.method,
        url: request.url,
        headers: headersToSend(request, options.withoutContentType === true),
        body: bodyOf(request),
        signal: options.signal
          ? AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)])
          : AbortSignal.timeout(timeoutMs),
      })
      const exchange = {
        request,
        response: await toResponse(response, this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES),
        operation,
      }
      const refused = exchange.response.refused
      // Past the bytes, or holding more values than any answer: each cost reading up to the whole limit.
      if (refused?.limit === 'size' || refused?.limit === 'values')
        this.silence.recordOversized(`${exchange.response.status} with ${refused.reason}`)
      else this.silence.recordAnswer()
      return exchange
    } catch (error) {
      // Ended by the check, not by the server: no timeout to count toward the stop.
      if (options.signal?.aborted) {
        throw this.noResponse({ request, response: NO_RESPONSE, operation }, 'no answer yet: the check stopped waiting')
      }
      const failure = describeTransportFailure(error, timeoutMs)
      // The status and headers came, the body did not end in time: a server that trickles its answer.
      const reason =
        failure.kind === 'timeout' && response
          ? `no complete response within ${timeoutMs} ms (timed out: ${response.status} and its headers came, the body was still arriving)`
          : failure.reason
      if (failure.kind === 'timeout') this.silence.recordTimeout(reason)
      throw this.noResponse({ request, response: NO_RESPONSE, operation }, reason)
    }
  }

  private noResponse(exchange: Exchange, what: string): ContractViolation {
    const finding = {
      check: SERVER_ANSWERS.name,
      rule: SERVER_ANSWERS.rule,
      message: `Received: ${what}`,
    }
    return this.violation([finding], exchange)
  }
}

/** The body's bytes: each character one byte for a latin1 body, else UTF-8. */
function bodyOf(request: ExchangeRequest): Uint8Array | undefined {
  if (request.body === undefined) return undefined
  return Buffer.from(request.body, request.bodyEncoding === 'latin1' ? 'latin1' : 'utf8')
}

/**
 * The request's headers, and the type fetch gives a string body that names none (`text/plain`), which the
 * checks were written against; `withoutContentType` sends such a body with no type at all.
 */
function headersToSend(request: ExchangeRequest, withoutContentType: boolean): Record<string, string> {
  if (request.body === undefined || withoutContentType || requestHeaderOf(request, 'content-type') !== undefined)
    return request.headers
  return { ...request.headers, 'content-type': 'text/plain;charset=UTF-8' }
}

function toRequest(baseUrl: string, options: SendOptions): ExchangeRequest {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
  let body = options.body
  if (options.json !== undefined) {
    body = JSON.stringify(options.json)
    headers['content-type'] ??= 'application/json'
  }
  const request: ExchangeRequest = {
    method: (options.method ?? 'GET').toUpperCase(),
    url: `${baseUrl}${options.path}`,
    headers,
    body,
  }
  if (options.latin1 && body !== undefined) {
    if ([...body].some((char) => char.charCodeAt(0) > 0xff))
      throw new RangeError('A latin1 body holds characters below U+0100 only.')
    request.bodyEncoding = 'latin1'
  }
  return request
}
