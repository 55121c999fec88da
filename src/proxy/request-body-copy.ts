import { BODY_LIMIT } from '../spec/contract-limits.js'

/**
 * What the proxy keeps of a request body while forwarding it: its size, and its bytes while they are
 * within the users API's limit (CONTRACT §4: 16 KiB; past it the answer is a 413 whatever the body),
 * so that a client streaming gigabytes costs the proxy 16 KiB.
 */
export class RequestBodyCopy {
  private readonly chunks: Buffer[] = []
  private kept = 0
  /** Every byte the client sent, forwarded or not. */
  bytes = 0

  write(chunk: Buffer): void {
    this.bytes += chunk.byteLength
    if (this.kept >= BODY_LIMIT) return
    const part = chunk.subarray(0, BODY_LIMIT - this.kept)
    this.chunks.push(part)
    this.kept += part.byteLength
  }

  /** Whether the body went past the limit: only its size is then known. */
  get overLimit(): boolean {
    return this.bytes > BODY_LIMIT
  }

  /** The whole body, when it is within the limit. */
  content(): Buffer | undefined {
    return this.overLimit ? undefined : Buffer.concat(this.chunks, this.kept)
  }
}
