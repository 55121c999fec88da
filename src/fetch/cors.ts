/**
 * CORS for the fetch handler, as the mock server answers it (src/server/build-app.ts, with
 * @fastify/cors): the same origins, methods and headers, and every OPTIONS a preflight answered 204
 * before the users API sees it. test/fetch-handler-cors.test.ts sends both the same requests and
 * compares their CORS headers.
 */

/** `true`: any origin (the server's default on a loopback address); a list: only those; `false`: no CORS. */
export type CorsOrigins = boolean | string[]

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE'
/** What a page's script may read of an answer: the challenge of a 401, a 405's methods, a 429's wait. */
const EXPOSED_HEADERS = 'WWW-Authenticate, Allow, Retry-After'
const PREFLIGHT_MAX_AGE_S = '600'

/**
 * The answer to an OPTIONS request: 204 with what the origin may send. A plain OPTIONS (no Origin, no
 * Access-Control-Request-Method) gets it too, as on the server: it is never an error of the users API.
 *
 * @example
 * answerPreflight(new Request('http://mock/api/users', { method: 'OPTIONS', headers: { origin: 'http://localhost:5173' } }), true)
 * // 204, Access-Control-Allow-Origin: http://localhost:5173, Access-Control-Allow-Methods: GET, HEAD, …
 */
export function answerPreflight(request: Request, origins: CorsOrigins): Response {
  const headers = new Headers(allowedOrigin(request, origins))
  headers.set('access-control-allow-methods', ALLOWED_METHODS)
  const asked = request.headers.get('access-control-request-headers')
  if (asked !== null) headers.set('access-control-allow-headers', asked)
  headers.set('access-control-expose-headers', EXPOSED_HEADERS)
  headers.set('access-control-max-age', PREFLIGHT_MAX_AGE_S)
  headers.set('vary', 'Origin, Access-Control-Request-Headers')
  return new Response(null, { status: 204, headers })
}

/** The CORS headers of an answer other than a preflight's: the origin when allowed, and what it may read. */
export function corsHeaders(request: Request, origins: CorsOrigins): Record<string, string> {
  return {
    ...allowedOrigin(request, origins),
    'access-control-expose-headers': EXPOSED_HEADERS,
    vary: 'Origin',
  }
}

function allowedOrigin(request: Request, origins: CorsOrigins): Record<string, string> {
  const origin = request.headers.get('origin')
  if (origin === null) return {}
  const allowed = origins === true || (Array.isArray(origins) && origins.includes(origin))
  return allowed ? { 'access-control-allow-origin': origin } : {}
}
