import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http'
import { Agent as HttpAgent, createServer, request as httpRequest } from '../http/node-http.js'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { AddressInfo } from 'node:net'
import { hasNoContentByHttp } from '../http/bodiless-answers.js'
import { HOP_BY_HOP_HEADERS } from '../http/hop-by-hop-headers.js'
import { exceedsJsonLimits, JsonTooDeep, JsonTooLarge, MAX_JSON_DEPTH, MAX_JSON_VALUES } from '../text/json-depth.js'
import { ResponseTooLarge } from '../http/read-bounded-body.js'
import { codingsOf, decodeWithin, filterCodings, readWithin } from './read-guarded-answer.js'
import { describeTransportFailure } from '../contract/client/transport-failure.js'
import { isHead } from '../http/methods.js'

/**
 * The header of the guard's own answers, naming what it refused: `deadline`, `size`, `depth`, `values`
 * or `transport`. schemathesis-hooks.py turns such an answer into an error that says so.
 */
export const GUARD_HEADER = 'x-users-api-kit-guard'

export type GuardRefusal = 'deadline' | 'size' | 'depth' | 'values' | 'transport'

export interface ResponseGuardOptions {
  /** The target's base URL (http or https, maybe with a path prefix). */
  targetBaseUrl: string
  /** The whole exchange, from the request's arrival to the answer's last byte. */
  timeoutMs: number
  /** Per answer, after decompression. */
  maxResponseBytes: number
}

export interface ResponseGuard {
  /** Where Schemathesis sends its requests: the guard's origin and the target's path prefix. */
  baseUrl: string
  /** The guard's URLs in a text (Schemathesis's output, its reports) written as the target's. */
  toTargetUrls(text: string): string
  close(): Promise<void>
}

/**
 * What Schemathesis may send in one body: its own limit, not the answers' (a request over the answers'
 * cap was reported as the target's oversized answer). Far above any body the users API reads.
 */
const MAX_REQUEST_BODY_BYTES = 64 * 1024 * 1024

/** The request's body, within its own limit; past it, the request is not sent (the target never gets it). */
async function readRequestBody(incoming: IncomingMessage, deadline: AbortSignal): Promise<Buffer> {
  try {
    return await readWithin(incoming, MAX_REQUEST_BODY_BYTES, deadline)
  } catch (error) {
    if (error instanceof ResponseTooLarge)
      throw new UnsendableRequest(new Error(`its body is over ${MAX_REQUEST_BODY_BYTES} bytes`))
    throw error
  }
}

/** Request line and headers, either way: far above node's 16 KiB, which a backend may not share. */
const MAX_HEADER_BYTES = 1024 * 1024

/**
 * A small reverse proxy on 127.0.0.1 between Schemathesis and the target, holding every answer to the
 * limits `verify` keeps (Schemathesis has none: a gzip bomb or an endless body took it past 4 GB, and
 * its --request-timeout bounds each socket read, not the request). Each answer is read whole, within
 * the deadline and the size limit (raw, and decoded from its content coding as it arrives, so that a
 * compression bomb is stopped after its first KiB), and JSON is checked for depth; then it is
 * forwarded as it came, or refused with a 502/504 carrying GUARD_HEADER and a message that says what
 * happened.
 *
 * @example
 * const guard = await startResponseGuard({ targetBaseUrl: 'https://staging.example/v2', timeoutMs: 10_000, maxResponseBytes: 4 << 20 })
 * // st run … --url guard.baseUrl; then guard.toTargetUrls(output); await guard.close()
 */
export async function startResponseGuard(options: ResponseGuardOptions): Promise<ResponseGuard> {
  const target = new URL(options.targetBaseUrl)
  const agent = target.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true })
  // As lenient as a backend may be: a request node would refuse by default (a request line over 16
  // KiB, bytes over 0x7F in a header) must reach the target, which answers it, not the guard.
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES, insecureHTTPParser: true }, (incoming, outgoing) => {
    // forward() answers every failure itself; what could still throw (a header the target sent that
    // cannot be written again) ends the connection, which the client reports.
    forward(incoming, outgoing, { ...options, target, agent }).catch(() => outgoing.destroy())
  })
  // A request even that parser cannot read never reaches the target: an error that says so, not an
  // answer of the guard's own that would pass for the target's.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    const message = `users-api-kit fuzz: the kit's guard could not read a request Schemathesis sent (${error.code ?? error.message}); it was not sent to the target`
    if (socket.writable)
      socket.end(
        `HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain; charset=utf-8\r\n${GUARD_HEADER}: transport\r\ncontent-length: ${Buffer.byteLength(message)}\r\nconnection: close\r\n\r\n${message}`,
      )
    else socket.destroy()
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    baseUrl: `${origin}${target.pathname.replace(/\/+$/, '')}`,
    toTargetUrls: (text) => text.replaceAll(origin, target.origin),
    close: async () => {
      server.closeAllConnections()
      agent.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** A request node's client will not write as it came (the guard's lenient parser let it in). */
class UnsendableRequest extends Error {
  constructor(cause: unknown) {
    const code = (cause as { code?: unknown }).code
    super(`${typeof code === 'string' ? `${code}: ` : ''}${cause instanceof Error ? cause.message : String(cause)}`)
  }
}

interface ForwardContext extends ResponseGuardOptions {
  target: URL
  agent: HttpAgent
}

interface UpstreamAnswer {
  status: number
  statusMessage: string
  rawHeaders: string[]
  /** As it came, to be forwarded so. */
  body: Buffer
  /** Decoded from its content coding; undefined when the coding is unknown or the bytes corrupt. */
  decoded?: Buffer
}

/** One exchange through the guard, in order: the request's body, the target's answer, the limits, the forward. */
async function forward(incoming: IncomingMessage, outgoing: ServerResponse, context: ForwardContext): Promise<void> {
  const label = `${incoming.method ?? 'GET'} ${(incoming.url ?? '/').split('?')[0]}`
  const deadline = AbortSignal.timeout(context.timeoutMs)
  let answered: { status: number } | undefined
  try {
    const requestBody = await readRequestBody(incoming, deadline)
    const answer = await send(incoming, requestBody, context, deadline, (status) => (answered = { status }))
    const refusal = checkBody(answer)
    if (refusal) return refuse(outgoing, 502, refusal.kind, `${label} got ${answer.status} with ${refusal.reason}`)
    outgoing.writeHead(answer.status, answer.statusMessage, forwardedHeaders(answer, incoming.method))
    outgoing.end(answer.body)
  } catch (error) {
    if (error instanceof ResponseTooLarge)
      return refuse(outgoing, 502, 'size', `${label} got ${answered?.status ?? 'an answer'} with ${error.message}`)
    if (deadline.aborted) {
      const what = answered
        ? `no complete response within ${context.timeoutMs} ms (timed out: ${answered.status} and its headers came, the body was still arriving)`
        : `no response within ${context.timeoutMs} ms (timed out)`
      return refuse(outgoing, 504, 'deadline', `${label} got ${what}`)
    }
    if (error instanceof UnsendableRequest)
      return refuse(
        outgoing,
        502,
        'transport',
        `the kit's guard could not send ${label} on (${error.message}); the target never got it`,
      )
    const failure = describeTransportFailure({ cause: error }, context.timeoutMs)
    refuse(outgoing, 502, 'transport', `${label} got ${failure.reason}`)
  }
}

function send(
  incoming: IncomingMessage,
  body: Buffer,
  context: ForwardContext,
  signal: AbortSignal,
  onHeaders: (status: number) => void,
): Promise<UpstreamAnswer> {
  const request = context.target.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    let upstream: ClientRequest
    try {
      upstream = request({
        protocol: context.target.protocol,
        hostname: context.target.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: context.target.port,
        // The request target exactly as Schemathesis sent it: a URL parser would resolve `..`, turn `\`
        // into `/` and so on, and the target would be tested on another request than the one reported.
        path: incoming.url ?? '/',
        method: incoming.method,
        headers: forwardedRequestHeaders(incoming, context.target, body),
        agent: context.agent,
        maxHeaderSize: MAX_HEADER_BYTES,
        signal,
      })
    } catch (error) {
      // node refuses to write what its lenient parser read (a NUL in a header): the target never sees it.
      return reject(new UnsendableRequest(error))
    }
    upstream.once('error', reject)
    upstream.once('response', (response) => {
      onHeaders(response.statusCode ?? 0)
      const codings = isHead(incoming.method) ? [] : codingsOf(response.headers['content-encoding'])
      Promise.all([
        readWithin(response, context.maxResponseBytes, signal),
        decodeWithin(response, codings, context.maxResponseBytes),
      ]).then(
        ([received, decoded]) =>
          resolve({
            status: response.statusCode ?? 502,
            statusMessage: response.statusMessage ?? '',
            rawHeaders: response.rawHeaders,
            body: received,
            decoded,
          }),
        (error: unknown) => {
          upstream.destroy()
          reject(error)
        },
      )
    })
    upstream.end(body)
  })
}

/** Why the answer may not pass, or undefined: JSON nested too deep, or holding too many values. */
function checkBody(answer: UpstreamAnswer): { kind: GuardRefusal; reason: string } | undefined {
  const contentType = headerMap(answer.rawHeaders).get('content-type') ?? ''
  if (!/[/+]json\b/i.test(contentType) || answer.body.byteLength === 0) return undefined
  const text = (answer.decoded ?? answer.body).toString('utf8')
  const passed = exceedsJsonLimits(text, { depth: MAX_JSON_DEPTH, values: MAX_JSON_VALUES })
  if (passed === 'depth') return { kind: 'depth', reason: new JsonTooDeep(MAX_JSON_DEPTH).message }
  // What Schemathesis would build of it: 1 MiB of [{},{},…] took it to 6.9 GiB.
  if (passed === 'values') return { kind: 'values', reason: new JsonTooLarge(MAX_JSON_VALUES).message }
  return undefined
}

function forwardedRequestHeaders(
  incoming: IncomingMessage,
  target: URL,
  body: Buffer,
): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined || HOP_BY_HOP_HEADERS.has(name) || name === 'host' || name === 'content-length') continue
    headers[name] = value
  }
  headers.host = target.host
  // Only codings the guard can measure once decoded (a client may offer zstd, which it cannot).
  const accepted = incoming.headers['accept-encoding']
  if (accepted !== undefined) headers['accept-encoding'] = filterCodings(accepted)
  if (body.byteLength > 0 || incoming.headers['content-length'] !== undefined)
    headers['content-length'] = String(body.byteLength)
  return headers
}

/** The answer's headers as they came (repeated ones too), less hop-by-hop ones, with the length of the body sent. */
function forwardedHeaders(answer: UpstreamAnswer, method: string | undefined): string[] {
  const headers: string[] = []
  const bodiless = hasNoContentByHttp(method ?? 'GET', answer.status)
  for (let index = 0; index + 1 < answer.rawHeaders.length; index += 2) {
    const name = answer.rawHeaders[index] ?? ''
    const lower = name.toLowerCase()
    if (HOP_BY_HOP_HEADERS.has(lower)) continue
    // HEAD, 204 and 304 keep the length they declared; the others get the length of what is forwarded.
    if (lower === 'content-length' && !bodiless) continue
    headers.push(name, answer.rawHeaders[index + 1] ?? '')
  }
  if (!bodiless) headers.push('Content-Length', String(answer.body.byteLength))
  return headers
}

function headerMap(rawHeaders: string[]): Map<string, string> {
  const map = new Map<string, string>()
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = (rawHeaders[index] ?? '').toLowerCase()
    const value = rawHeaders[index + 1] ?? ''
    map.set(name, map.has(name) ? `${map.get(name)}, ${value}` : value)
  }
  return map
}

function refuse(outgoing: ServerResponse, status: 502 | 504, kind: GuardRefusal, what: string): void {
  if (outgoing.headersSent) return void outgoing.destroy()
  const message = `users-api-kit fuzz: ${what}`
  outgoing.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    [GUARD_HEADER]: kind,
    'content-length': Buffer.byteLength(message),
  })
  outgoing.end(message)
}
