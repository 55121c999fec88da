import type { ServerResponse } from 'node:http'

/**
 * The proxy's one error type: what it answers itself, when the upstream gave no answer or the request
 * is one it never forwards. Each code maps to one status and title (RFC 9457 problem+json), written
 * once here; the answer says it came from the proxy, so that nobody blames the backend for it.
 */
export const PROXY_PROBLEMS = {
  /** The upstream refused the connection, reset it, or answered something that is not HTTP. */
  BAD_GATEWAY: { status: 502, title: 'Bad Gateway' },
  /** No whole answer from the upstream within --request-timeout. */
  GATEWAY_TIMEOUT: { status: 504, title: 'Gateway Timeout' },
  /** An absolute-form or asterisk-form target: the client may not choose where the proxy connects. */
  TARGET_REFUSED: { status: 400, title: 'Bad Request' },
  /** CONNECT and protocol upgrades: the proxy forwards HTTP requests to one upstream, no tunnels. */
  METHOD_REFUSED: { status: 405, title: 'Method Not Allowed' },
  /** A /__proxy/ route asked for by a page of another site (DNS rebinding). */
  HOST_REFUSED: { status: 403, title: 'Forbidden' },
  /** A /__proxy/ path the proxy does not have. */
  NOT_FOUND: { status: 404, title: 'Not Found' },
  /** The client's body went BODY_TIMEOUT_MS (src/http/body-timeout.ts) without a byte: dropped. */
  BODY_STALLED: { status: 408, title: 'Request Timeout' },
  /** Too many live pages open at once. */
  TOO_MANY_STREAMS: { status: 503, title: 'Service Unavailable' },
} as const satisfies Record<string, { status: number; title: string }>

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
  const { status, title } = PROXY_PROBLEMS[error.code]
  const body = JSON.stringify({ type: 'about:blank', title, status, code: error.code, detail: error.message })
  response.writeHead(status, {
    'content-type': 'application/problem+json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    [PROXY_ANSWER_HEADER]: 'answered by users-api-kit proxy, not by the upstream',
  })
  response.end(body)
}
