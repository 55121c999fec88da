import type { Readable, Transform } from 'node:stream'
import { codingsOf, createDecoders } from '../http/content-codings.js'
import { toResponse } from '../contract/client/to-response.js'
import type { ExchangeResponse } from '../contract/client/exchange.js'
import { ResponseTooLarge } from '../http/read-bounded-body.js'
import type { CopyBudget } from './copy-budget.js'
import { toHeaderRecord } from '../http/header-record.js'

/** A copy the proxy read as verify's client reads an answer, or why it could not. */
export type CopyOutcome = { response: ExchangeResponse } | { unchecked: string }

export interface ResponseCopyOptions {
  status: number
  /** The upstream's end-to-end headers, node's rawHeaders form. */
  rawHeaders: readonly string[]
  /** False for HEAD, 204 and 304: no body by HTTP. */
  hasBody: boolean
  /** --max-response-bytes, after decompression. */
  maxBytes: number
  budget: CopyBudget
}

class BudgetFull extends Error {
  constructor(limit: number) {
    super(`the proxy already holds ${Math.round(limit / (1024 * 1024))} MiB of answers being checked`)
  }
}

/**
 * The proxy's copy of one answer, fed with the upstream's bytes as they are forwarded: decompressed
 * (as verify's client decodes), read by verify's own reader (contract/client/to-response.ts: the same
 * --max-response-bytes, the same JSON depth limit) and parsed. Past the limit the copy stops (the answer
 * itself still goes to the client whole); a gzip bomb is inflated no further than the limit.
 */
export class ResponseCopy {
  readonly outcome: Promise<CopyOutcome>
  private controller!: ReadableStreamDefaultController<Uint8Array>
  private readonly decoders: Transform[] = []
  private stopped = false
  private rawBytes = 0
  private taken = 0

  constructor(private readonly options: ResponseCopyOptions) {
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller
      },
      // verify's reader cancels past --max-response-bytes: nothing more is copied or inflated.
      cancel: () => this.stop(),
    })
    const headers = toHeaderRecord(options.rawHeaders)
    const coding = headers['content-encoding'] ?? ''
    const codings = options.hasBody ? codingsOf(coding) : []
    const decoders = codings.length === 0 ? [] : createDecoders(codings)
    if (!decoders) {
      this.stopped = true
      this.outcome = Promise.resolve({
        unchecked: `an answer in a content-encoding the proxy does not decode (${coding})`,
      })
      return
    }
    this.decoders = decoders
    // Chained in the order the codings come off: the last one gives the body.
    const last = decoders.reduce<Readable | undefined>((source, decoder) => source?.pipe(decoder) ?? decoder, undefined)
    last?.on('data', (chunk: Buffer) => this.enqueue(chunk))
    last?.on('end', () => this.close())
    for (const decoder of decoders)
      decoder.on('error', (error: Error) =>
        this.error(new Error(`a ${coding} body that does not decompress (${error.message})`)),
      )
    this.outcome = this.read(stream, headers, decoders.length > 0).finally(() => options.budget.give(this.taken))
  }

  /** A chunk of the answer's body, as the upstream sent it. */
  write(chunk: Buffer): void {
    if (this.stopped) return
    this.rawBytes += chunk.byteLength
    const [first] = this.decoders
    if (!first) return this.enqueue(chunk)
    // Compressed bytes wait in the decoders: as many as the limit allows, no more.
    if (this.rawBytes > this.options.maxBytes) return this.error(new ResponseTooLarge(this.options.maxBytes, ''))
    first.write(chunk)
  }

  end(): void {
    if (this.stopped) return
    const [first] = this.decoders
    if (first) first.end()
    else this.close()
  }

  /** The body did not arrive whole (the upstream reset it, the deadline passed): nothing to check. */
  fail(reason: string): void {
    this.error(new Error(reason))
  }

  private async read(
    stream: ReadableStream<Uint8Array>,
    headers: Record<string, string>,
    decoded: boolean,
  ): Promise<CopyOutcome> {
    const { status, hasBody, maxBytes } = this.options
    try {
      const read = await toResponse(
        { status, headers: forReading(headers, decoded), body: hasBody ? stream : null },
        maxBytes,
      )
      // The checks see the headers as they came, Content-Encoding included (verify's client keeps them too).
      return { response: { ...read, headers } }
    } catch (error) {
      return { unchecked: error instanceof BudgetFull ? `not checked: ${error.message}` : (error as Error).message }
    }
  }

  private enqueue(chunk: Buffer): void {
    if (this.stopped) return
    if (!this.options.budget.take(chunk.byteLength)) return this.error(new BudgetFull(this.options.budget.limit))
    this.taken += chunk.byteLength
    this.controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
  }

  private close(): void {
    if (this.stopped) return
    this.stopped = true
    this.controller.close()
  }

  private error(error: Error): void {
    if (this.stopped) return
    this.controller.error(error)
    this.stop()
  }

  private stop(): void {
    this.stopped = true
    for (const decoder of this.decoders) decoder.destroy()
  }
}

/** The headers the copy is read with: once decompressed, the compressed length no longer applies. */
function forReading(headers: Record<string, string>, decoded: boolean): Record<string, string> {
  if (!decoded) return headers
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !/^content-(encoding|length)$/.test(name)))
}
