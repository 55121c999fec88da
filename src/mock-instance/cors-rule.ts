/**
 * Who may read the users API's answers from a browser page (CORS), whatever the transport: the server
 * writes these headers on every answer of the API, the fetch handler on its own. The mock's own routes
 * (docs, control routes) are stricter: src/server/build-app.ts gives them only the origins `--cors` lists.
 */

/** `true`: any origin (the default on a loopback address); a list: only those; `false`: no CORS. */
export type CorsOrigins = boolean | string[]

/** The methods a page may send: the users API's and the control routes'. */
export const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']
/** What a page's script may read of an answer: the challenge of a 401, a 405's methods, a 429's wait. */
export const CORS_EXPOSED_HEADERS = ['WWW-Authenticate', 'Allow', 'Retry-After']
/** How long a browser keeps a preflight's answer, in seconds. */
export const CORS_MAX_AGE_S = 600

/** What a CORS answer reads of the request. */
export interface CorsRequest {
  origin: string | undefined
  /** Access-Control-Request-Headers of a preflight. */
  requestHeaders?: string | undefined
}

/**
 * The headers of a preflight's 204: what the origin may send. A plain OPTIONS (no Origin, no
 * Access-Control-Request-Method) gets them too: it is never an error of the users API (docs/contract.md §4).
 *
 * @example
 * preflightHeaders({ origin: 'http://localhost:5173' }, true)['access-control-allow-origin'] // 'http://localhost:5173'
 */
export function preflightHeaders(request: CorsRequest, origins: CorsOrigins): Record<string, string> {
  return {
    ...allowedOrigin(request.origin, origins),
    'access-control-allow-methods': CORS_METHODS.join(', '),
    ...(request.requestHeaders === undefined ? {} : { 'access-control-allow-headers': request.requestHeaders }),
    'access-control-expose-headers': CORS_EXPOSED_HEADERS.join(', '),
    'access-control-max-age': String(CORS_MAX_AGE_S),
    vary: 'Origin, Access-Control-Request-Headers',
  }
}

/**
 * The CORS headers of any other answer: to an allowed origin, the origin and what it may read. Always
 * `Vary: Origin`, as the answer differs by it; what a page may read means nothing where no origin is
 * allowed (Fetch reads it only past the origin check), so a request without Origin (curl, a test, a
 * backend) gets no such header to write and parse.
 */
export function answerCorsHeaders(origin: string | undefined, origins: CorsOrigins): Record<string, string> {
  if (!isAllowed(origin, origins)) return { vary: 'Origin' }
  return {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': CORS_EXPOSED_HEADERS.join(', '),
    vary: 'Origin',
  }
}

function allowedOrigin(origin: string | undefined, origins: CorsOrigins): Record<string, string> {
  return isAllowed(origin, origins) ? { 'access-control-allow-origin': origin } : {}
}

function isAllowed(origin: string | undefined, origins: CorsOrigins): origin is string {
  return origin !== undefined && (origins === true || (Array.isArray(origins) && origins.includes(origin)))
}
