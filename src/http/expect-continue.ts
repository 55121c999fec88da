import type { IncomingMessage } from 'node:http'

/**
 * Whether the client waits to be asked for a body it declared larger than `limit`: `Expect:
 * 100-continue` (RFC 9110 §10.1.1; node's 'checkContinue' event, HTTP/1.1 only) and a Content-Length
 * over it. Such a body is never asked for: the answer (a 413, or what comes before it in the contract's
 * order) comes at once, instead of the 100 Continue node would send for a billion bytes.
 *
 * @example
 * server.on('checkContinue', (request, response) => {
 *   if (!waitsToSendMoreThan(request, BODY_LIMIT)) response.writeContinue()
 *   server.emit('request', request, response)
 * })
 */
export function waitsToSendMoreThan(request: IncomingMessage, limit: number): boolean {
  if (request.httpVersion !== '1.1' || !/(?:^|\W)100-continue(?:$|\W)/i.test(request.headers.expect ?? '')) return false
  const declared = Number(request.headers['content-length'])
  return Number.isFinite(declared) && declared > limit
}
