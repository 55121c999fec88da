/**
 * How verify's client reaches a users API: one request out, its answer back, its body still to read.
 * Over the network it is node:http's (http-client.ts); a run may answer some origin in process instead
 * (the mutation run's mock, through contract/client/default-transport.ts).
 */
export type Transport = (request: OutgoingRequest) => Promise<IncomingAnswer>

export interface OutgoingRequest {
  method: string
  /** Absolute: `http://127.0.0.1:4010/api/users/me`. */
  url: string
  headers: Record<string, string>
  body?: Uint8Array
  /** Bounds the whole exchange, the body's last byte included: its reason is what a late answer rejects with. */
  signal: AbortSignal
}

export interface IncomingAnswer {
  status: number
  /** Lower-cased names, repeated ones joined with `, `; Content-Encoding and Content-Length as they came. */
  headers: Record<string, string>
  /** Decoded of its content codings; null when HTTP gives the answer none (HEAD, 204, 304). */
  body: AnswerBody | null
}

/** A body read chunk by chunk; `cancel` drops the rest (and its connection) unread. A fetch Response's body is one. */
export interface AnswerBody extends AsyncIterable<Uint8Array> {
  cancel(): unknown
}
