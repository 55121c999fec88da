/**
 * Facts of HTTP's methods (RFC 9110 §9), runtime-neutral: the engine, the transports, the suite and the
 * proxy ask here. Methods are case-sensitive (§9.1): `head` is no HEAD, but a method of its own.
 */

/** Whether a request is a HEAD: GET's answer without its content (RFC 9110 §9.3.2). */
export function isHead(method: string | undefined): boolean {
  return method === 'HEAD'
}

/** The safe methods (RFC 9110 §9.2.1): read-only by definition, so no answer to them changes a user. */
export const SAFE_METHODS: readonly string[] = ['GET', 'HEAD', 'OPTIONS', 'TRACE']

export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.includes(method)
}

/**
 * Methods a server answers on any resource, whatever its document says: HEAD as GET (RFC 9110 §9.3.2),
 * OPTIONS for CORS (§9.3.7). No operation of the document has them, and an `Allow` may list them.
 */
export const METHODS_OF_EVERY_RESOURCE: readonly string[] = ['HEAD', 'OPTIONS']
