import { answerCorsHeaders, preflightHeaders, type CorsOrigins } from '../mock-instance/cors-rule.js'

export type { CorsOrigins }

/**
 * CORS for the fetch handler, by the rule the server follows too (src/mock-instance/cors-rule.ts): every
 * OPTIONS is a preflight answered 204 before the users API sees it. test/transports/fetch-handler-cors.test.ts sends
 * both the same requests and compares their CORS headers.
 *
 * @example
 * answerPreflight(new Request('http://mock/api/users', { method: 'OPTIONS', headers: { origin: 'http://localhost:5173' } }), true)
 * // 204, Access-Control-Allow-Origin: http://localhost:5173, Access-Control-Allow-Methods: GET, HEAD, …
 */
export function answerPreflight(request: Request, origins: CorsOrigins): Response {
  const asked = {
    origin: headerOf(request, 'origin'),
    requestHeaders: headerOf(request, 'access-control-request-headers'),
  }
  return new Response(null, { status: 204, headers: preflightHeaders(asked, origins) })
}

/** The CORS headers of an answer other than a preflight's: the origin when allowed, and what it may read. */
export function corsHeaders(request: Request, origins: CorsOrigins): Record<string, string> {
  return answerCorsHeaders(headerOf(request, 'origin'), origins)
}

function headerOf(request: Request, name: string): string | undefined {
  return request.headers.get(name) ?? undefined
}
