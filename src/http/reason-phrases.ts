/**
 * The reason phrases of RFC 9110 §15 for every status the kit answers or holds a backend to: the one
 * table of them. A problem of type about:blank has its status's phrase as title (RFC 9457 §4.2.1,
 * docs/contract.md §5): the engine and the proxy write them, the contract suite and the proxy's rules
 * read them. Which error is which status is the engine's (src/engine/problems.ts), not this table's.
 */
export const REASON_PHRASES = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
} as const

/** A status with a phrase in the table. */
export type PhrasedStatus = keyof typeof REASON_PHRASES

/** Earlier names a correct server may still send: 413's of RFC 7231, before RFC 9110 renamed it. */
const EARLIER_PHRASES: Readonly<Record<number, readonly string[]>> = { 413: ['Payload Too Large'] }

/**
 * Every phrase a correct server may give `status`, RFC 9110's first; none for a status not in the table.
 *
 * @example
 * reasonPhrasesOf(413) // ['Content Too Large', 'Payload Too Large']
 */
export function reasonPhrasesOf(status: number): readonly string[] {
  const phrase = (REASON_PHRASES as Readonly<Record<number, string>>)[status]
  return phrase === undefined ? [] : [phrase, ...(EARLIER_PHRASES[status] ?? [])]
}
