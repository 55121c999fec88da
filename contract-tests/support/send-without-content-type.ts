import type { Exchange } from '../../src/contract/client/exchange.js'
import { send, type Sender } from './suite.js'

/**
 * Sends a body with no Content-Type header at all, which `fetch` does not do for a string (it adds
 * `text/plain`): the body goes as bytes. Every response-level check runs on the answer, as in `send`.
 */
export async function sendWithoutContentType(options: {
  as: Exclude<Sender, null>
  method: string
  path: string
  body: string
}): Promise<Exchange> {
  return send({ ...options, withoutContentType: true })
}
