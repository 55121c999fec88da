import type { Exchange } from '../../src/contract/client/exchange.js'
import { send, type Sender } from './suite.js'

/**
 * Sends a body with no Content-Type header at all (a string body otherwise goes as `text/plain`, as
 * fetch sent it when the suite's client was fetch). Every response-level check runs on the answer, as in `send`.
 */
export async function sendWithoutContentType(options: {
  as: Exclude<Sender, null>
  method: string
  path: string
  body: string
}): Promise<Exchange> {
  return send({ ...options, withoutContentType: true })
}
