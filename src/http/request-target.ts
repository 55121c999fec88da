/**
 * The request target (RFC 9110 §7.1), runtime-neutral: where its path ends and its query begins, read
 * once here for the engine, the transports and the proxy.
 */

/**
 * `/api/users?page=2`, or an absolute URL: the path as sent (not decoded) and the query without its `?`
 * (a `#…`, which no request target may carry, is dropped).
 *
 * @example
 * splitTarget('http://mock/api/users?page=2#top') // { path: '/api/users', query: 'page=2' }
 */
export function splitTarget(url: string): { path: string; query: string } {
  // Absolute-form targets come from MSW and proxies.
  const target = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '')
  const queryStart = target.indexOf('?')
  const path = queryStart === -1 ? target : target.slice(0, queryStart)
  // split() gives one part at least.
  const query = queryStart === -1 ? '' : (target.slice(queryStart + 1).split('#')[0] as string)
  return { path: path.startsWith('/') ? path : `/${path}`, query }
}

/**
 * Whether `path` is `root` or lies under it: a root ends at a segment's end, so `/apiary` is not under
 * `/api`; every path is under the empty root.
 *
 * @example
 * isUnderPath('/api/users', '/api') // true
 */
export function isUnderPath(path: string, root: string): boolean {
  return root === '' || path === root || path.startsWith(`${root}/`)
}
