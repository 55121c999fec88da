import type { FastifyInstance } from 'fastify'
import { inject } from 'light-my-request'
import { toExchange, toWireRequest, type ApiExchange, type ApiRequest } from './api-exchange.js'
import { assertConforms, type ConformanceOptions } from './response-conformance.js'

/**
 * Sends a request to a built mock server without a socket, as a listening server gets it (its `request`
 * event: the users API to the engine, the mock's own routes to Fastify, the state file told after each
 * answer), and asserts that the response conforms to the document (see `assertConforms`; `{ conform:
 * false }` skips it).
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
  await app.ready()
  const response = await inject((incoming, outgoing) => app.server.emit('request', incoming, outgoing), {
    method: method as 'GET',
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
