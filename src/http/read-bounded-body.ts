import { BoundedBytes } from '../streams/bounded-bytes.js'
import type { AnswerBody, IncomingAnswer } from './transport.js'
import { describeBytes } from '../text/describe-bytes.js'

/** How much of an oversized body a report keeps, to show what it began with. */
const KEPT_HEAD_BYTES = 1024

/**
 * A body that went past the limit: the kit read no further (an endless stream, a decompression bomb,
 * a gigabyte of something). `head` is its first KiB, for the report.
 */
export class ResponseTooLarge extends Error {
  override readonly name = 'ResponseTooLarge'

  constructor(
    readonly limit: number,
    readonly head: string,
    /** The Content-Length the server declared, when that alone settled it. */
    readonly declared?: number,
  ) {
    super(describeTooLarge(limit, declared))
  }
}

/** What a body over the limit is, in words: `a body over 1 MiB (1048576 bytes) after decompression, …`. */
function describeTooLarge(limit: number, declared?: number): string {
  const what =
    declared === undefined
      ? `a body over ${describeBytes(limit)} after decompression`
      : `a body of ${describeBytes(declared)} (its Content-Length), over ${describeBytes(limit)}`
  return `${what}; the kit reads no further (--max-response-bytes)`
}

/** What a body is read from: an answer's headers and body, a transport's or a fetch Response's. */
export type BoundedAnswer = Pick<IncomingAnswer, 'headers' | 'body'>

/**
 * The text of an answer, read chunk by chunk and given up past `maxBytes` (counted after decompression),
 * so that an endless body or a gzip bomb is read no further than `maxBytes`. The request's AbortSignal
 * still bounds the time: a body that trickles in rejects with its reason.
 *
 * @throws ResponseTooLarge past the limit; the connection is dropped.
 * @example
 * const text = await readBoundedBody(await send({ method: 'GET', url, headers: {}, signal }), 1024 * 1024)
 */
export async function readBoundedBody(answer: BoundedAnswer, maxBytes: number): Promise<string> {
  if (answer.body === null) return ''
  const declared = Number(answer.headers['content-length'] ?? Number.NaN)
  // Without a content coding, Content-Length is the size: no need to read a gigabyte to know.
  if (answer.headers['content-encoding'] === undefined && Number.isSafeInteger(declared) && declared > maxBytes) {
    await cancel(answer.body)
    throw new ResponseTooLarge(maxBytes, '', declared)
  }
  // One byte more than the limit tells a body of exactly `maxBytes` from a longer one.
  const body = new BoundedBytes(maxBytes + 1)
  for await (const chunk of answer.body) if (!body.write(chunk)) break
  if (body.total > maxBytes) {
    await cancel(answer.body)
    const head = new TextDecoder().decode(body.bytes().subarray(0, KEPT_HEAD_BYTES))
    throw new ResponseTooLarge(maxBytes, head)
  }
  return new TextDecoder().decode(body.bytes())
}

/** Drops what is left of a body; a fetch body already cancelled by the loop's end rejects, which is no matter. */
async function cancel(body: AnswerBody): Promise<void> {
  await Promise.resolve(body.cancel()).catch(() => undefined)
}
