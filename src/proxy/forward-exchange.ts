import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http'
import { describeTransportFailure, type TransportFailure } from '../contract/client/transport-failure.js'
import { hasNoContentByHttp } from '../http/bodiless-answers.js'
import { waitsToSendMoreThan } from '../http/expect-continue.js'
import { BODY_LIMIT } from '../spec/contract-limits.js'
import { BoundedBytes } from '../streams/bounded-bytes.js'
import type { CopyBudget } from './copy-budget.js'
import { endToEndHeaders, withHost } from './forwarded-headers.js'
import { ProxyError, sendProxyProblem } from './proxy-error.js'
import { ResponseCopy, type CopyOutcome } from './response-copy.js'
import type { Upstream } from './upstream.js'

/** verify's limits (src/cli/shared-options.ts): the proxy holds each exchange to the same. */
export interface ExchangeLimits {
  /** The exchange with the upstream, from the request's forwarding to the answer's last byte (--request-timeout). */
  timeoutMs: number
  /** Per answer, after decompression (--max-response-bytes): past it the copy stops, the answer goes on. */
  maxResponseBytes: number
  budget: CopyBudget
}

/** One request forwarded and what came back, as the proxy saw both. */
export interface ForwardedExchange {
  method: string
  /** The client's request target: path and query. */
  target: string
  /** The client's headers, as sent. */
  rawHeaders: string[]
  /**
   * What the proxy keeps of the request body while forwarding it: its size, and its bytes within the
   * users API's limit (CONTRACT §4; past it the answer is a 413 whatever the body), so that a client
   * streaming gigabytes costs the proxy 16 KiB.
   */
  body: BoundedBytes
  /** The upstream's answer, when its status and headers came. */
  response?: {
    status: number
    rawHeaders: string[]
    copy: Promise<CopyOutcome>
  }
  /** Why no whole answer came (its status may have: then the body did not end). */
  failure?: TransportFailure
  /**
   * The Content-Length of a body the client declared over the users API's limit and waited to be asked
   * for (`Expect: 100-continue`), which the upstream answered without asking for: never sent.
   */
  unsentBodyBytes?: number
  /** The client went away before the answer ended: nothing to judge. */
  clientGone: boolean
  durationMs: number
}

/**
 * Forwards one request to the upstream and its answer back, unchanged but for the hop-by-hop headers
 * and Host (RFC 9110 §7.6.1), while bounded copies of both are kept for the checks: the request once
 * its body is whole or past 16 KiB (the rest streamed), the answer streamed as it comes.
 * Redirects are answers like any other: forwarded, never followed. When no answer comes in time, or the
 * upstream fails, the proxy answers 504 or 502 itself (if nothing was sent yet) or cuts the connection.
 * Resolves once the exchange is over, however it ended; never rejects.
 */
export function forwardExchange(
  request: IncomingMessage,
  response: ServerResponse,
  upstream: Upstream,
  limits: ExchangeLimits,
): Promise<ForwardedExchange> {
  const started = performance.now()
  const method = request.method ?? 'GET'
  const target = request.url ?? '/'
  const exchange: ForwardedExchange = {
    method,
    target,
    rawHeaders: request.rawHeaders,
    body: new BoundedBytes(BODY_LIMIT),
    clientGone: false,
    durationMs: 0,
  }
  return new Promise((resolve) => {
    let settled = false
    let copy: ResponseCopy | undefined
    let outgoing: ClientRequest | undefined
    let deadline: NodeJS.Timeout | undefined
    const finish = (): void => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      exchange.durationMs = Math.round(performance.now() - started)
      resolve(exchange)
    }
    const fail = (failure: TransportFailure, code: 'BAD_GATEWAY' | 'GATEWAY_TIMEOUT'): void => {
      if (settled) return
      exchange.failure = failure
      copy?.fail(failure.reason)
      outgoing?.destroy()
      // Nothing sent yet: the proxy answers for itself. Else the client must see the answer is cut short.
      if (!response.headersSent)
        sendProxyProblem(response, new ProxyError(code, `The upstream ${upstream.url}: ${failure.reason}.`))
      else cutShort(response)
      finish()
    }

    // The body is held until it is whole or past the users API's limit before anything goes to the upstream
    // (nginx's proxy_request_buffering): a client sending it slowly holds a connection of the proxy's, not
    // one to the upstream, whose pool the requests that are ready need (600 slow bodies held all 256).
    const held: Buffer[] = []
    let heldBytes = 0
    request.on('data', (chunk: Buffer) => {
      exchange.body.write(chunk)
      if (outgoing) return
      held.push(chunk)
      heldBytes += chunk.byteLength
      if (heldBytes > BODY_LIMIT) forward()
    })
    request.once('end', () => outgoing ?? forward())
    // The client left: the upstream's work for it is dropped too.
    response.on('close', () => {
      if (response.writableFinished || settled) return
      exchange.clientGone = true
      copy?.fail('the client went away')
      outgoing?.destroy()
      finish()
    })
    // A body over the limit that the client waits to be asked for: the upstream asks for it, or refuses it.
    const asksUpstream = waitsToSendMoreThan(request, BODY_LIMIT)
    if (asksUpstream) forward()

    function forward(): void {
      const headers = withHost(endToEndHeaders(request.rawHeaders), upstream.host)
      if (asksUpstream) {
        headers.push('Expect', '100-continue')
        exchange.unsentBodyBytes = Number(request.headers['content-length'])
      }
      const sent = upstream.request(method, target, headers)
      outgoing = sent
      sent.on('continue', () => {
        delete exchange.unsentBodyBytes
        response.writeContinue()
      })
      deadline = setTimeout(() => {
        const { response: answer } = exchange
        // As verify words it (contract-client.ts): the status and headers came, the body did not end in time.
        const reason = answer
          ? `no complete response within ${limits.timeoutMs} ms (timed out: ${answer.status} and its headers came, the body was still arriving)`
          : `no response within ${limits.timeoutMs} ms (timed out)`
        fail({ kind: 'timeout', reason }, 'GATEWAY_TIMEOUT')
      }, limits.timeoutMs)
      sent.on('error', (error) => fail(describeTransportFailure({ cause: error }, limits.timeoutMs), 'BAD_GATEWAY'))
      sent.on('response', (incoming) => {
        const status = incoming.statusCode ?? 0
        const rawHeaders = endToEndHeaders(incoming.rawHeaders)
        const hasBody = !hasNoContentByHttp(method, status)
        copy = new ResponseCopy({
          status,
          rawHeaders,
          hasBody,
          maxBytes: limits.maxResponseBytes,
          budget: limits.budget,
        })
        exchange.response = { status, rawHeaders, copy: copy.outcome }
        // The upstream's Date, or none: the proxy adds nothing of its own to an answer.
        response.sendDate = false
        response.writeHead(status, incoming.statusMessage, rawHeaders)
        incoming.on('data', (chunk: Buffer) => copy?.write(chunk))
        incoming.on('end', () => copy?.end())
        incoming.on('close', () => {
          if (!incoming.complete)
            fail(
              { kind: 'dropped', reason: 'the upstream closed the connection before its answer ended' },
              'BAD_GATEWAY',
            )
        })
        incoming.pipe(response)
        response.on('finish', finish)
      })
      for (const chunk of held.splice(0)) sent.write(chunk)
      if (request.readableEnded) sent.end()
      else request.pipe(sent)
    }
  })
}

/** How long a cut answer's last bytes may take to reach a client before its connection is destroyed. */
const CUT_GRACE_MS = 1_000

/**
 * The upstream's head and what came of its body, then the connection closed before the body's end: the
 * client sees an answer cut short. The head goes out with the body's first bytes, so when the upstream
 * broke off at once (its framing broken in the packet of its head) it has not gone yet: sent now, else
 * the client got an empty reply. Closed once written (destroyed at once, what was queued could be
 * dropped), and within CUT_GRACE_MS whatever the client reads.
 */
function cutShort(response: ServerResponse): void {
  const socket = response.socket
  if (socket === null || socket.destroyed) return void response.destroy()
  response.flushHeaders()
  socket.destroySoon()
  setTimeout(() => socket.destroy(), CUT_GRACE_MS).unref()
}
