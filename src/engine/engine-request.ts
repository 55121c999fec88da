/**
 * What a transport hands the engine: the request as it arrived, nothing parsed. A transport may stop
 * reading a body after `BODY_LIMIT + 1` bytes: the engine only needs to know that it is over the limit.
 */
export interface EngineRequest {
  /** As sent: `GET`, `PATCH`, … (HEAD is answered as GET without a body). */
  method: string
  /** The request target as sent, not decoded: `/api/users?page=2` (an absolute URL is accepted too). */
  url: string
  /** Header names in lower case; a repeated header as the transport joins it. */
  headers: Readonly<Record<string, string | undefined>>
  /** The body's bytes; undefined or empty when there is none. */
  body?: Uint8Array | undefined
}

/** What the engine answers; a transport writes it as it is. */
export interface EngineResponse {
  status: number
  /** Header names in lower case. */
  headers: Record<string, string>
  /** The body's text, undefined for none (204, HEAD). */
  body?: string | undefined
  /** The authenticated caller's role, for a transport's logs; never sent. */
  role?: string | undefined
}
