/**
 * What every reader of a body in the kit keeps of it: its first `limit` bytes and the count of all of
 * them, so that a body of gigabytes costs little more than `limit` bytes whatever reads it (the
 * transports' 413, the suite's and fuzz's answer limits, the proxy's copy). A reader that must tell
 * whether a body is over N bytes keeps N + 1. Plain Uint8Array: the fetch transport runs in browsers too.
 *
 * @example
 * const body = new BoundedBytes(BODY_LIMIT + 1)
 * for await (const chunk of request) body.write(chunk) // keeps 16 KiB + 1 byte, counts the rest
 * if (body.total > BODY_LIMIT) throw tooLarge()
 */
export class BoundedBytes {
  private readonly chunks: Uint8Array[] = []
  private kept = 0
  /** Every byte written, kept or not. */
  total = 0

  constructor(readonly limit: number) {}

  /** Keeps what of `chunk` lies within the limit; false once `limit` bytes are held (no more is wanted). */
  write(chunk: Uint8Array): boolean {
    this.total += chunk.byteLength
    if (this.kept < this.limit) {
      const room = this.limit - this.kept
      // The part of a chunk that fills the limit is copied: a view would hold the whole chunk's buffer.
      const part = chunk.byteLength <= room ? chunk : chunk.slice(0, room)
      this.chunks.push(part)
      this.kept += part.byteLength
    }
    return this.kept < this.limit
  }

  /** Whether the body went past the limit: only its first `limit` bytes are kept. */
  get over(): boolean {
    return this.total > this.limit
  }

  /** The bytes kept: the whole body within the limit, else its first `limit` bytes. */
  bytes(): Uint8Array {
    if (this.chunks.length === 1) return this.chunks[0] as Uint8Array
    const bytes = new Uint8Array(this.kept)
    let offset = 0
    for (const chunk of this.chunks) {
      bytes.set(chunk, offset)
      offset += chunk.byteLength
    }
    return bytes
  }
}

/**
 * Reads a Web stream into BoundedBytes and stops as soon as `limit` bytes are held: the stream is then
 * cancelled, so that an endless body is read no further. A stream that errors rejects with its reason
 * (a fetch's AbortSignal bounds the time).
 */
export async function readUpTo(stream: ReadableStream<Uint8Array>, limit: number): Promise<BoundedBytes> {
  const body = new BoundedBytes(limit)
  const reader = stream.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return body
    if (!body.write(value)) {
      await reader.cancel().catch(() => undefined)
      return body
    }
  }
}
