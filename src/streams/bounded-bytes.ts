/**
 * What every reader of a body in the kit keeps of it: its first `limit` bytes and how many it had, so
 * that a body of gigabytes costs `limit` bytes whatever reads it (the transports' 413, the suite's and
 * fuzz's answer limits, the proxy's copy). Plain Uint8Array: the fetch transport runs in browsers too.
 *
 * @example
 * const body = new BoundedBytes(16 * 1024)
 * for await (const chunk of request) body.write(chunk) // keeps 16 KiB, counts the rest
 * if (body.over) throw tooLarge()
 */
export class BoundedBytes {
  private readonly chunks: Uint8Array[] = []
  private kept = 0
  /** Every byte written, kept or not. */
  total = 0

  constructor(readonly limit: number) {}

  /** Keeps what of `chunk` lies within the limit; false once the body is past it. */
  write(chunk: Uint8Array): boolean {
    this.total += chunk.byteLength
    if (this.kept < this.limit) {
      const part = chunk.subarray(0, this.limit - this.kept)
      this.chunks.push(part)
      this.kept += part.byteLength
    }
    return this.total <= this.limit
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
 * Reads a Web stream into BoundedBytes and stops as soon as it is past `limit`: the stream is then
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
