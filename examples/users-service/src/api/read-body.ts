import type { IncomingMessage } from 'node:http'
import { ApiError } from './problem.js'

/** docs/contract.md §4: a body over 16 KiB is a 413 on every route, GET and DELETE included. */
export const BODY_LIMIT = 16 * 1024

/**
 * The request's body, read here rather than by Fastify: the contract's order puts 413 after
 * authentication and routing, and applies it to methods Fastify never reads a body of (GET).
 * Reading stops one byte past the limit; the rest is never read (the 413 closes the connection).
 *
 * @throws ApiError PAYLOAD_TOO_LARGE
 */
export async function readBody(request: IncomingMessage): Promise<Buffer> {
  const tooLarge = () =>
    new ApiError('PAYLOAD_TOO_LARGE', `A request body may hold at most ${BODY_LIMIT} bytes.`, {
      headers: { connection: 'close' },
    })
  const declared = Number(request.headers['content-length'])
  if (declared > BODY_LIMIT) throw tooLarge()
  if (request.readableEnded) return Buffer.alloc(0)
  const chunks: Buffer[] = []
  let size = 0
  return new Promise((resolve, reject) => {
    const settle = (outcome: () => void) => {
      request.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose)
      outcome()
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      chunks.push(chunk)
      // Paused, not destroyed: destroying the request would close the socket before the 413 is written.
      if (size > BODY_LIMIT) settle(() => (request.pause(), reject(tooLarge())))
    }
    const onEnd = () => settle(() => resolve(Buffer.concat(chunks)))
    const onError = (error: Error) => settle(() => reject(error))
    const onClose = () => settle(() => reject(new Error('the client closed the connection before its body ended')))
    request.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose)
  })
}
