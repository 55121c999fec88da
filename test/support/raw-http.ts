import http from 'node:http'
import type { ApiExchange } from './api-exchange.js'

/** A request as bytes go on the wire: the path is sent as written, the body as given. */
export interface RawRequest {
  method: string
  /** Path and query, already percent-encoded as the test wants it (`%FF` stays `%FF`). */
  path: string
  /** A repeated header is an array: each value goes on its own line. */
  headers: Record<string, string | string[]>
  body?: Buffer
  /** Send the body with `Transfer-Encoding: chunked`, in two chunks, instead of a `Content-Length`. */
  chunked?: boolean
}

/**
 * Sends one request over a fresh TCP connection with node:http, which (unlike `fetch`) sends the
 * path and the body bytes untouched: invalid UTF-8, duplicate query parameters, repeated headers.
 * A body is always framed, by `Content-Length` or chunked: without either, node sends a GET's or
 * DELETE's body unframed and the server reads it as the next request.
 *
 * @example
 * const answer = await sendRaw(mock.url, { method: 'GET', path: '/api/users?limit=1&limit=2', headers: {} })
 */
export function sendRaw(baseUrl: string, request: RawRequest): Promise<ApiExchange> {
  const { hostname, port } = new URL(baseUrl)
  const headers = { ...request.headers }
  if (request.body !== undefined) {
    if (request.chunked) headers['transfer-encoding'] = 'chunked'
    else headers['content-length'] = String(request.body.length)
  }
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      { host: hostname, port, method: request.method, path: request.path, headers, agent: false },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('error', reject)
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          resolve(toRawExchange(request, response, text))
        })
      },
    )
    outgoing.on('error', reject)
    const body = request.body ?? Buffer.alloc(0)
    const half = request.chunked ? Math.ceil(body.length / 2) : body.length
    if (half > 0) outgoing.write(body.subarray(0, half))
    outgoing.end(body.subarray(half))
  })
}

function toRawExchange(request: RawRequest, response: http.IncomingMessage, text: string): ApiExchange {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return {
    request: { method: request.method, url: request.path },
    status: response.statusCode ?? 0,
    headers,
    text,
    body: parseJson(text, headers['content-type']),
  }
}

/** The body as JSON when it says it is JSON and is; `undefined` otherwise (the checks then say why). */
function parseJson(text: string, contentType: string | undefined): unknown {
  if (text === '' || !/json/i.test(contentType ?? '')) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
