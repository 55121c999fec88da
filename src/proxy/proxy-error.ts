import type { ServerResponse } from 'node:http'
import { REASON_PHRASES, type PhrasedStatus } from '../http/reason-phrases.js'

/**
 * The proxy's one error type: what it answers itself, when the upstream gave no answer or the request
 * is one it never forwards. Each code maps to one status, written once here, whose reason phrase is the
 * title (RFC 9457 problem+json); the answer says it came from the proxy, so that nobody blames the
 * backend for it.
 */
export const PROXY_PROBLEMS = {
  /** The upstream refused the connection, reset it, or answered something that is not HTTP. */
  BAD_GATEWAY: 502,
  /** No whole answer from the upstream within --request-timeout. */
  GATEWAY_TIMEOUT: 504,
  /** An absolute-form or asterisk-form target: the client may not choose where the proxy connects. */
  TARGET_REFUSED: 400,
  /** CONNECT and protocol upgrades: the proxy forwards HTTP requests to one upstream, no tunnels. */
  METHOD_REFUSED: 405,
  /** A /__proxy/ route asked for by a page of another site (DNS rebinding). */
  HOST_REFUSED: 403,
  /** A /__proxy/ path the proxy does not have. */
  NOT_FOUND: 404,
  /** The client's body went BODY_TIMEOUT_MS (src/http/body-timeout.ts) without a byte: dropped. */
  BODY_STALLED: 408,
  /** Too many live pages open at once. */
  TOO_MANY_STREAMS: 503,
} as const satisfies Record<string, PhrasedStatus>

export type ProxyErrorCode = keyof typeof PROXY_PROBLEMS

export class ProxyError extends Error {
  override readonly name = 'ProxyError'

  constructor(
    readonly code: ProxyErrorCode,
    message: string,
  ) {
    super(message)
  }
}

/** The header that marks an answer the proxy wrote itself (never on a forwarded answer). */
export const PROXY_ANSWER_HEADER = 'x-users-api-kit-proxy'

/**
 * A ProxyError as the proxy's own problem+json answer. `code` is the proxy's, not one of the users API
 * (docs/contract.md §5): the answer is no backend's.
 */
export function sendProxyProblem(response: ServerResponse, error: ProxyError): void {
  const { status, body } = proxyProblemOf(error)
  response.writeHead(status, {
    'content-type': 'application/problem+json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    [PROXY_ANSWER_HEADER]: 'answered by users-api-kit proxy, not by the upstream',
  })
  response.end(body)
}

/** The status of a ProxyError, its reason phrase and its problem+json body. */
export function proxyProblemOf(error: ProxyError): { status: number; title: string; body: string } {
  const status = PROXY_PROBLEMS[error.code]
  const title = REASON_PHRASES[status]
  const body = JSON.stringify({ type: 'about:blank', title, status, code: error.code, detail: error.message })
  return { status, title, body }
}
