import type { LoadedSpec } from '../spec/load-spec.js'
import { listOperations, type Operation } from '../spec/operations.js'
import { ContractViolation, type Finding } from './contract-violation.js'
import type { Exchange, ExchangeRequest, ExchangeResponse } from './exchange.js'
import { matchOperation } from './match-operation.js'
import { ResponseSchemas, type SuiteLayer } from './response-schemas.js'

/** What a response-level check sees besides the exchange. */
export interface CheckContext {
  schemas: ResponseSchemas
  layer: SuiteLayer
}

/** A rule every response must keep (contract-tests/checks/): a message when broken, else nothing. */
export interface ResponseCheck {
  name: string
  rule: string
  layer: 'core' | 'profile'
  verify(exchange: Exchange, context: CheckContext): string | undefined
}

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
}

export interface ContractClientOptions {
  baseUrl: string
  spec: LoadedSpec
  checks: ResponseCheck[]
  layer?: SuiteLayer
  /** Per request (default 10 s). */
  timeoutMs?: number
}

/**
 * The suite's only way to the API: sends a request, records the exchange, and runs every
 * response-level check on it, so that every scenario also checks conformance. A broken check throws
 * a ContractViolation, a bug report with a curl to reproduce it.
 *
 * @example
 * const me = await client.send({ path: '/api/users/me', token: target.actors.owner.token })
 */
export class ContractClient {
  readonly operations: Operation[]
  private readonly context: CheckContext
  private readonly checks: ResponseCheck[]

  constructor(private readonly options: ContractClientOptions) {
    const layer = options.layer ?? 'all'
    this.operations = listOperations(options.spec.dereferenced)
    this.context = { schemas: new ResponseSchemas(layer), layer }
    this.checks = options.checks.filter((check) => layer === 'all' || check.layer === 'core')
  }

  async send(options: SendOptions): Promise<Exchange> {
    const exchange = await this.exchange(options)
    const findings = this.findingsOf(exchange)
    if (findings.length > 0) throw new ContractViolation(findings, exchange)
    return exchange
  }

  /** Runs the response-level checks on an exchange; [] when it keeps them all. */
  findingsOf(exchange: Exchange): Finding[] {
    return this.checks.flatMap((check) => {
      const message = check.verify(exchange, this.context)
      return message === undefined ? [] : [{ check: check.name, rule: check.rule, message }]
    })
  }

  private async exchange(options: SendOptions): Promise<Exchange> {
    const request = toRequest(this.options.baseUrl, options)
    // A base URL may carry a path prefix (`https://host/v2`): the document's paths follow it.
    const basePath = new URL(this.options.baseUrl).pathname.replace(/\/+$/, '')
    const pathname = new URL(request.url).pathname.slice(basePath.length)
    const operation = matchOperation(this.operations, request.method, pathname)
    let response: Response
    try {
      response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      })
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
      const finding = {
        check: 'server-answers',
        rule: 'The server answers every request within the timeout',
        message: `Received: no response (${reason})`,
      }
      throw new ContractViolation([finding], { request, response: { status: 0, headers: {}, text: '' }, operation })
    }
    return { request, response: await toResponse(response), operation }
  }
}

function toRequest(baseUrl: string, options: SendOptions): ExchangeRequest {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
  let body = options.body
  if (options.json !== undefined) {
    body = JSON.stringify(options.json)
    headers['content-type'] ??= 'application/json'
  }
  return { method: (options.method ?? 'GET').toUpperCase(), url: `${baseUrl}${options.path}`, headers, body }
}

async function toResponse(response: Response): Promise<ExchangeResponse> {
  const text = await response.text()
  const headers = Object.fromEntries(
    [...response.headers.entries()].map(([name, value]) => [name.toLowerCase(), value]),
  )
  const result: ExchangeResponse = { status: response.status, headers, text }
  if (/json/.test(headers['content-type'] ?? '') && text !== '') {
    try {
      result.body = JSON.parse(text)
    } catch {
      // Left undefined: the media-type check reports a body that is not the JSON it claims.
    }
  }
  return result
}
