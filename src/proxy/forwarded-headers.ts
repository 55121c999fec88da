import { HOP_BY_HOP_HEADERS } from '../http/hop-by-hop-headers.js'

/**
 * `Expect` is answered by the proxy's own server (100 Continue), so it is not passed on either; but for a
 * body over the users API's limit, which forward-exchange.ts lets the upstream ask for.
 */
const NOT_FORWARDED = new Set([...HOP_BY_HOP_HEADERS, 'expect'])

/**
 * The end-to-end headers of a message, in node's `rawHeaders` form (`[name, value, name, value, …]`),
 * their order, case and repetitions kept: what the proxy forwards unchanged.
 *
 * @example
 * endToEndHeaders(['Connection', 'close, X-Trace', 'X-Trace', '1', 'Accept', '*\/*']) // ['Accept', '*\/*']
 */
export function endToEndHeaders(rawHeaders: readonly string[]): string[] {
  const named = new Set<string>()
  for (let index = 0; index < rawHeaders.length; index += 2) {
    if (rawHeaders[index]?.toLowerCase() !== 'connection') continue
    for (const token of (rawHeaders[index + 1] ?? '').split(',')) named.add(token.trim().toLowerCase())
  }
  const kept: string[] = []
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = rawHeaders[index] as string
    const lower = name.toLowerCase()
    if (NOT_FORWARDED.has(lower) || named.has(lower)) continue
    kept.push(name, rawHeaders[index + 1] as string)
  }
  return kept
}

/**
 * Headers with `Host` set to the upstream's (in the place the client's stood, else first): the request
 * goes to the upstream's authority, whatever the client named.
 */
export function withHost(rawHeaders: readonly string[], host: string): string[] {
  const headers = [...rawHeaders]
  const index = headers.findIndex((name, position) => position % 2 === 0 && name.toLowerCase() === 'host')
  if (index === -1) return ['Host', host, ...headers]
  headers[index + 1] = host
  // A second Host would be a request smuggling vector (RFC 9112 §3.2): only the first is kept.
  return headers.filter((_, position) => {
    const start = position - (position % 2)
    return start <= index || headers[start]?.toLowerCase() !== 'host'
  })
}
