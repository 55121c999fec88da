import type { FastifyInstance } from 'fastify'
import { toExchange, toWireRequest, type ApiExchange, type ApiRequest } from './api-exchange.js'
import { assertConforms, type ConformanceOptions } from './response-conformance.js'

/**
 * Sends a request through `app.inject()` and asserts that the response conforms to the document
 * (see `assertConforms`; `{ conform: false }` skips it).
 *
 * @example
 * const me = await injectApi<UserEnvelope>(app, { url: '/api/users/me', token: 'owner-token' })
 */
export async function injectApi<T = unknown>(
  app: FastifyInstance,
  request: ApiRequest,
  options: ConformanceOptions = {},
): Promise<ApiExchange<T>> {
  const { method, headers, payload } = toWireRequest(request)
  const response = await app.inject({
    method,
    url: request.url,
    headers,
    ...(payload === undefined ? {} : { payload }),
  })
  const responseHeaders: Record<string, string> = {}
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined)
      responseHeaders[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value)
  }
  const exchange = toExchange<T>(request, response.statusCode, responseHeaders, response.body)
  await assertConforms(exchange, options)
  return exchange
}
