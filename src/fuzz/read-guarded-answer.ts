import type { Readable } from 'node:stream'
import { canDecode, codingsOf, createDecoders } from '../http/content-codings.js'
import { ResponseTooLarge } from '../http/read-bounded-body.js'
import { BoundedBytes } from '../streams/bounded-bytes.js'

// How fuzz's guard (response-guard.ts) reads an answer within the limits: its bytes as they came, and
// the same decoded from their content coding as they arrive, each given up past the size limit.

// The codings are the kit's (src/http/content-codings.ts): the proxy decodes the same.
export { codingsOf }

/** A stream's bytes, given up past `maxBytes` (ResponseTooLarge) or when the signal aborts. */
export function readWithin(stream: Readable, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // Full at one byte past the limit: the body is over it.
    const body = new BoundedBytes(maxBytes + 1)
    const abort = () => {
      stream.destroy()
      reject(signal.reason)
    }
    if (signal.aborted) return abort()
    signal.addEventListener('abort', abort, { once: true })
    stream.on('data', (chunk: Buffer) => {
      if (body.write(chunk)) return
      signal.removeEventListener('abort', abort)
      stream.destroy()
      reject(new ResponseTooLarge(maxBytes, ''))
    })
    stream.once('end', () => {
      signal.removeEventListener('abort', abort)
      resolve(asBuffer(body.bytes()))
    })
    stream.once('error', (error) => {
      signal.removeEventListener('abort', abort)
      reject(error)
    })
  })
}

/**
 * The answer decoded from its content codings as it arrives, given up past `maxBytes`: a gzip bomb is
 * refused once its first few KiB have become more than the limit. Undefined for an identity body is
 * the body itself (the guard reads the body itself); for a coding the guard cannot read or bytes that do not decode, the
 * client gets the bytes as they came and says what it makes of them.
 */
export function decodeWithin(response: Readable, codings: string[], maxBytes: number): Promise<Buffer | undefined> {
  const decoders = codings.length === 0 ? undefined : createDecoders(codings)
  if (!decoders) return Promise.resolve(undefined)
  const last = decoders.reduce<Readable>((source, decoder) => source.pipe(decoder), response)
  return new Promise((resolve, reject) => {
    const body = new BoundedBytes(maxBytes + 1)
    last.on('data', (chunk: Buffer) => {
      if (body.write(chunk)) return
      for (const decoder of decoders) decoder.destroy()
      response.destroy()
      reject(new ResponseTooLarge(maxBytes, ''))
    })
    last.once('end', () => resolve(asBuffer(body.bytes())))
    for (const decoder of decoders) decoder.once('error', () => resolve(undefined))
  })
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

/** What a client offers in Accept-Encoding, less the codings the guard could not measure once decoded. */
export function filterCodings(accepted: string): string {
  return accepted
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => {
      const name = coding.split(';')[0]?.trim().toLowerCase() ?? ''
      return name === 'identity' || canDecode(name)
    })
    .join(', ')
}
