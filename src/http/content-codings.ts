import type { Transform } from 'node:stream'
import * as zlib from 'node:zlib'

// The content codings the kit decodes to read an answer within its limits: verify's client
// (src/http/http-client.ts), fuzz's guard between Schemathesis and the target (src/fuzz/read-guarded-answer.ts)
// and the proxy's copy of each answer (src/proxy/response-copy.ts). As fetch (undici) decodes: a stream that
// ends without its trailer gives what it holds, and more than 5 codings are not decoded at all.

interface ZstdZlib {
  createZstdDecompress(): Transform
}

/** Flushed as undici flushes: a body cut before its checksum is read as far as it goes, not failed. */
const LENIENT = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH }
const LENIENT_BROTLI = {
  flush: zlib.constants.BROTLI_OPERATION_FLUSH,
  finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
}

/** More codings than undici decodes: a header of thousands would build as many decoders. */
const MAX_CODINGS = 5

/** Each coding's decoder, as a stream (zstd where this Node has it: 22.15 and 23.8 on). */
const DECODERS: Record<string, (() => Transform) | undefined> = {
  gzip: () => zlib.createGunzip(LENIENT),
  'x-gzip': () => zlib.createGunzip(LENIENT),
  // HTTP's "deflate" is zlib-wrapped by the RFC; zlib.createUnzip also takes the gzip some servers send.
  deflate: () => zlib.createUnzip(LENIENT),
  br: () => zlib.createBrotliDecompress(LENIENT_BROTLI),
  ...('createZstdDecompress' in zlib ? { zstd: () => (zlib as unknown as ZstdZlib).createZstdDecompress() } : {}),
}

/**
 * The codings of a Content-Encoding header in the order they come off: applied in the order listed,
 * so removed in reverse (RFC 9110 §8.4); identity is none.
 *
 * @example
 * codingsOf('gzip, br') // ['br', 'gzip']
 */
export function codingsOf(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity')
    .reverse()
}

/** Whether the kit decodes a coding. */
export function canDecode(coding: string): boolean {
  return DECODERS[coding.toLowerCase()] !== undefined
}

/**
 * New decoders for codings in the order they come off, or undefined when one is a coding the kit does not
 * decode, or there are more than 5.
 */
export function createDecoders(codings: string[]): Transform[] | undefined {
  if (codings.length > MAX_CODINGS) return undefined
  const factories = codings.map((coding) => DECODERS[coding])
  if (factories.some((factory) => factory === undefined)) return undefined
  return factories.map((factory) => (factory as () => Transform)())
}
