import { readBoundedBody, ResponseTooLarge } from '../../http/read-bounded-body.js'
import type { IncomingAnswer } from '../../http/transport.js'
import { JsonTooDeep, JsonTooLarge, parseBoundedJson } from '../../text/json-depth.js'
import type { ExchangeResponse } from './exchange.js'

/**
 * The answer as checks see it, read within the limits of http/response-limits.ts and text/json-depth.ts:
 * a body past `maxBytes` or JSON nested too deep is kept out (its first KiB, or its text unparsed) and
 * marked `refused`, which is then the exchange's one finding. verify's client reads every answer with it,
 * and the proxy its copy of each (src/proxy/response-copy.ts), so that both judge the same text.
 *
 * @example
 * const answer = await toResponse(await send(request), 1024 * 1024) // { status: 200, headers, text, body }
 */
export async function toResponse(response: IncomingAnswer, maxBytes: number): Promise<ExchangeResponse> {
  const { headers } = response
  let text: string
  try {
    text = await readBoundedBody(response, maxBytes)
  } catch (error) {
    if (!(error instanceof ResponseTooLarge)) throw error
    return { status: response.status, headers, text: error.head, refused: { limit: 'size', reason: error.message } }
  }
  const result: ExchangeResponse = { status: response.status, headers, text }
  if (/json/.test(headers['content-type'] ?? '') && text !== '') {
    try {
      result.body = parseBoundedJson(text)
    } catch (error) {
      if (error instanceof JsonTooDeep) result.refused = { limit: 'depth', reason: error.message }
      if (error instanceof JsonTooLarge) result.refused = { limit: 'values', reason: error.message }
      // Else left undefined: the media-type check reports a body that is not the JSON it claims.
    }
  }
  return result
}
