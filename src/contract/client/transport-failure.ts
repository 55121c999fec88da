/**
 * Why a request got no HTTP answer. `unreachable`: no connection was made at all (refused, no such
 * host, TLS), so nothing is there to test; the other kinds mean something
 * accepted the connection and then failed to speak HTTP, which is a broken server.
 */
export interface TransportFailure {
  kind: 'timeout' | 'dropped' | 'not-http' | 'unreachable' | 'other'
  /** What happened, for people: `no response within 1000 ms (timed out)`. */
  reason: string
}

/** Error codes of a connection that was never made. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
])

/**
 * Reads a failed request of node:http (verify's client, the pre-checks, fuzz's guard, the proxy): its
 * error, or the error in its `cause`, carries the code (`ECONNRESET`, `HPE_INVALID_CONSTANT`, …);
 * `AbortSignal.timeout` rejects with a `TimeoutError`.
 *
 * @example
 * describeTransportFailure(error, 1000) // { kind: 'dropped', reason: 'the connection was reset (ECONNRESET) before a response came' }
 */
export function describeTransportFailure(error: unknown, timeoutMs: number): TransportFailure {
  if (error instanceof Error && error.name === 'TimeoutError')
    return { kind: 'timeout', reason: `no response within ${timeoutMs} ms (timed out)` }
  type Described = { code?: unknown; message?: unknown; cause?: Described } | undefined
  const cause = (error as Described)?.cause ?? (error as Described)
  const code = typeof cause?.code === 'string' ? cause.code : undefined
  const message = typeof cause?.message === 'string' ? cause.message : undefined
  // node:http's words for a connection closed before an answer (or before the end of one), not reset.
  if (code === 'ECONNRESET' && message === 'socket hang up')
    return { kind: 'dropped', reason: 'the server closed the connection without answering (socket hang up)' }
  if (code === 'ECONNRESET' && message === 'aborted')
    return { kind: 'dropped', reason: 'the server closed the connection before its answer ended' }
  if (code === 'ECONNRESET')
    return { kind: 'dropped', reason: 'the connection was reset (ECONNRESET) before a response came' }
  if (code === 'EPIPE')
    return { kind: 'dropped', reason: `the server closed the connection without answering (${message ?? code})` }
  if (code?.startsWith('HPE_'))
    return { kind: 'not-http', reason: `an answer that is not HTTP (${code}: ${message ?? 'unparsable'})` }
  if (code !== undefined && UNREACHABLE_CODES.has(code))
    return { kind: 'unreachable', reason: `${code}${message && !message.includes(code) ? `: ${message}` : ''}` }
  // TLS failures carry OpenSSL's codes: of the handshake, or of the certificate's verification.
  if (code !== undefined && /^(ERR_SSL|ERR_TLS|EPROTO$|UNABLE_TO_|HOSTNAME_MISMATCH$)|CERT/.test(code))
    return { kind: 'unreachable', reason: `TLS failed (${code})` }
  if (code !== undefined) return { kind: 'other', reason: `${code}${message ? `: ${message}` : ''}` }
  return { kind: 'other', reason: message ?? (error instanceof Error ? error.message : String(error)) }
}
