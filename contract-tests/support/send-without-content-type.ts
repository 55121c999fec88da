import type { Exchange } from '../../src/contract/client/exchange.js'
import { send, type Sender } from './suite.js'

/**
 * Sends a body with no Content-Type header at all (a string body that names none otherwise goes as
 * `text/plain;charset=UTF-8`, contract-client.ts). Every response-level check runs on the answer, as in `send`.
 */
export async function sendWithoutContentType(options: {
  as: Exclude<Sender, null>
  method: string
  path: string
  body: string
}): Promise<Exchange> {
  return send({ ...options, withoutContentType: true })
}
