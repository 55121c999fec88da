import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http'
import type * as NodeHttps from 'node:https'
import { finished, pipeline, type Readable } from 'node:stream'
import { hasNoContentByHttp } from './bodiless-answers.js'
import { codingsOf, createDecoders } from './content-codings.js'
import { toHeaderRecord } from './header-record.js'
import { isSafeMethod } from './methods.js'
import { Agent as HttpAgent, request as httpRequest } from './node-http.js'
import type { AnswerBody, IncomingAnswer, OutgoingRequest, Transport } from './transport.js'

/**
 * Idle kept-alive connections are closed after this long, before most servers close theirs (node's
 * 5 s, undici's 4 s): a request then rarely meets a connection the server is closing.
 */
const IDLE_MS = 4_000

/**
 * What a request carries unless it names its own: fetch's Accept and Accept-Encoding (over http; fetch asks
 * for br too over https), and a User-Agent that names the kit where fetch said `node`. fetch's
 * `Accept-Language: *` and `Sec-Fetch-Mode: cors` are a browser's, and not sent.
 */
const DEFAULT_HEADERS: Record<string, string> = {
  accept: '*/*',
  'accept-encoding': 'gzip, deflate',
  'user-agent': 'users-api-kit',
}

/**
 * Codes of a kept-alive connection the server closed as the request went out (its idle timeout): a safe
 * request is sent again on a new one. Another is not: the server may have done it before closing, and
 * doing it twice would fail checks for nothing (fetch sent nothing again at all).
 */
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE'])

/**
 * verify's client on node:http (and node:https): kept-alive connections, bodies decoded of gzip, deflate,
 * br (and zstd where node has it) as fetch decodes them (content-codings.ts; a raw deflate stream, which
 * fetch also takes, is not), redirects never followed, and one signal for the whole exchange. It costs
 * less than half of fetch's CPU a request (BENCHMARKS.md), and a run sends ~1,400. Errors are node's own
 * (`ECONNRESET`, `HPE_…`): transport-failure.ts reads them.
 *
 * @example
 * const send = createHttpTransport()
 * const answer = await send({ method: 'GET', url, headers: {}, signal: AbortSignal.timeout(10_000) })
 */
export function createHttpTransport(): Transport {
  const agents: { http?: HttpAgent; https?: NodeHttps.Agent } = {}
  const agentFor = (secure: boolean): HttpAgent | NodeHttps.Agent => {
    const options = { keepAlive: true, timeout: IDLE_MS, ...proxyOptions() }
    if (!secure) return (agents.http ??= new HttpAgent(options))
    // node:https only when a target is https: it loads TLS.
    const https = process.getBuiltinModule('node:https')
    return (agents.https ??= new https.Agent(options))
  }
  return async (request) => {
    try {
      return await sendOnce(request, agentFor)
    } catch (error) {
      if (error instanceof StaleConnection && !request.signal.aborted) return sendOnce(request, agentFor, true)
      throw error instanceof StaleConnection ? error.cause : error
    }
  }
}

/**
 * fetch goes through HTTP_PROXY, HTTPS_PROXY and NO_PROXY when node is told to (NODE_USE_ENV_PROXY=1 or
 * --use-env-proxy), and so does this client: node's own agents take them, an agent made here only when asked.
 */
function proxyOptions(): { proxyEnv?: NodeJS.ProcessEnv } {
  const told = process.env['NODE_USE_ENV_PROXY'] === '1' || process.execArgv.includes('--use-env-proxy')
  return told ? { proxyEnv: process.env } : {}
}

class StaleConnection extends Error {
  constructor(override readonly cause: unknown) {
    super('a kept-alive connection closed by the server')
  }
}

function sendOnce(
  request: OutgoingRequest,
  agentFor: (secure: boolean) => HttpAgent | NodeHttps.Agent,
  fresh = false,
): Promise<IncomingAnswer> {
  const { signal } = request
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error)
    let outgoing: ClientRequest
    // The last error of the request's socket: a broken framing or a reset after the head came.
    let socketError: unknown
    let answered = false
    const onAbort = (): void => void outgoing.destroy(signal.reason as Error)
    try {
      const url = new URL(request.url)
      const secure = url.protocol === 'https:'
      const options: RequestOptions = {
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || (secure ? 443 : 80),
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers: headersOf(request),
        agent: fresh ? false : agentFor(secure),
      }
      outgoing = secure ? process.getBuiltinModule('node:https').request(options) : httpRequest(options)
    } catch (error) {
      // A header node will not write (a name with a space, a value with a line break).
      return reject(error as Error)
    }
    signal.addEventListener('abort', onAbort, { once: true })
    const done = (): void => signal.removeEventListener('abort', onAbort)
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      socketError = error
      if (answered) return
      done()
      if (signal.aborted) return reject(signal.reason as Error)
      const stale = outgoing.reusedSocket && isSafeMethod(request.method) && STALE_CONNECTION.has(error.code ?? '')
      reject(stale ? new StaleConnection(error) : error)
    })
    // Closed with neither an answer nor an error (a 101 to a request that asked no upgrade): no answer.
    outgoing.on('close', () => {
      if (answered) return
      done()
      reject(signal.aborted ? (signal.reason as Error) : (socketError ?? closedWithoutAnswer()))
    })
    outgoing.on('response', (incoming: IncomingMessage) => {
      answered = true
      const status = incoming.statusCode ?? 0
      const headers = toHeaderRecord(incoming.rawHeaders)
      if (hasNoContentByHttp(request.method, status)) {
        incoming.resume()
        finished(incoming, done)
        return resolve({ status, headers, body: null })
      }
      const failure = (error: unknown): unknown => (signal.aborted ? signal.reason : (socketError ?? error))
      resolve({ status, headers, body: new NodeAnswerBody(incoming, decoded(incoming, headers), failure, done) })
    })
    outgoing.end(request.body)
  })
}

/** node:http's own words for a connection closed before an answer (transport-failure.ts reads them). */
function closedWithoutAnswer(): Error {
  return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })
}

/** The headers to send: the request's own, trimmed as fetch trims them, the defaults it names none of, its body's length. */
function headersOf(request: OutgoingRequest): Record<string, string> {
  const headers: Record<string, string> = {}
  const named = new Set<string>()
  for (const [name, value] of Object.entries(request.headers)) {
    headers[name] = value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '')
    named.add(name.toLowerCase())
  }
  for (const [name, value] of Object.entries(DEFAULT_HEADERS)) if (!named.has(name)) headers[name] = value
  if (request.body !== undefined) headers['content-length'] = String(request.body.byteLength)
  return headers
}

/** The body as fetch gives it: decoded of the codings it names, or as it came when one is not known. */
function decoded(incoming: IncomingMessage, headers: Record<string, string>): Readable {
  const codings = codingsOf(headers['content-encoding'])
  const decoders = codings.length === 0 ? undefined : createDecoders(codings)
  if (!decoders) return incoming
  // pipeline ends every stream of the chain when one fails: the last one then rejects its reader.
  return pipeline([incoming, ...decoders], () => undefined) as unknown as Readable
}

/** A node answer's body: read in chunks, its connection dropped when it is cancelled or not read to its end. */
class NodeAnswerBody implements AnswerBody {
  constructor(
    private readonly incoming: IncomingMessage,
    private readonly source: Readable,
    private readonly failure: (error: unknown) => unknown,
    private readonly done: () => void,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    let ended = false
    try {
      // As plain bytes: a reader's copy of part of one (bounded-bytes.ts) is then a copy, not a view of node's buffer.
      for await (const chunk of this.source) yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)
      ended = true
    } catch (error) {
      throw this.failure(error)
    } finally {
      this.done()
      if (!ended) this.cancel()
    }
  }

  cancel(): void {
    this.done()
    this.source.destroy()
    this.incoming.destroy()
  }
}
