import { AppError } from '../errors.js'
import { BODY_LIMIT, isJsonMediaType } from '../spec/contract-limits.js'
import { invalid } from './validation-issues.js'

const UTF8 = new TextDecoder('utf-8', { fatal: true })

/** The 415 detail of a body that is not sent as JSON, on every route that reads one. */
export const SEND_AS_JSON = 'Send the body as JSON, with the header Content-Type: application/json.'

/** CONTRACT §5: a body over 16 KiB is a 413, on every route, whatever its type. */
export function assertBodySize(body: Uint8Array | undefined): void {
  if (body !== undefined && body.byteLength > BODY_LIMIT) {
    throw new AppError('PAYLOAD_TOO_LARGE', `The body is over the limit of ${BODY_LIMIT} bytes (16 KiB).`)
  }
}

/**
 * CONTRACT §4 (PATCH): the media type and encoding first (415), then the bytes (400: none, not UTF-8,
 * not JSON). What the JSON holds is the validation's business.
 */
export function readJsonBody(
  headers: Readonly<Record<string, string | undefined>>,
  body: Uint8Array | undefined,
): unknown {
  if (!isJsonMediaType(headers['content-type'])) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', SEND_AS_JSON)
  }
  const encoding = headers['content-encoding']?.trim().toLowerCase()
  // docs/contract.md §4 is silent on an empty Content-Encoding: the mock reads it as none.
  if (encoding !== undefined && encoding !== '' && encoding !== 'identity') {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      `The body is sent with Content-Encoding: ${encoding}; send it unencoded (the mock reads no ${encoding}).`,
    )
  }
  if (body === undefined || body.byteLength === 0) throw invalid('body', '', 'the body is empty; send a JSON object')
  let text: string
  try {
    text = UTF8.decode(body)
  } catch {
    throw invalid('body', '', 'the body is not valid UTF-8')
  }
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw invalid('body', '', `the body is not valid JSON (${(error as Error).message})`)
  }
}
