import { toExchange, toWireRequest, type ApiExchange, type ApiRequest } from './api-exchange.js'
import { assertConforms, type ConformanceOptions } from './response-conformance.js'

/**
 * Sends a request with `fetch` over a real socket to `baseUrl` and asserts that the response conforms
 * to the document (see `assertConforms`; `{ conform: false }` skips it).
 *
 * @example
 * const me = await fetchApi<UserEnvelope>(mock.url, { url: '/api/users/me', token: 'owner-token' })
 */
export async function fetchApi<T = unknown>(
  baseUrl: string,
  request: ApiRequest,
  options: ConformanceOptions = {},
): Promise<ApiExchange<T>> {
  const { method, headers, payload } = toWireRequest(request)
  const response = await fetch(`${baseUrl}${request.url}`, {
    method,
    headers,
    ...(payload === undefined ? {} : { body: payload }),
  })
  const responseHeaders: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    responseHeaders[name.toLowerCase()] = value
  })
  const exchange = toExchange<T>(request, response.status, responseHeaders, await response.text())
  await assertConforms(exchange, options)
  return exchange
}
