import type { ExchangeRequest } from './exchange.js'
import { maskHeaderValue } from '../../text/redact-secrets.js'
import { shellQuote as quote } from '../../text/shell-quote.js'

/**
 * A curl command that sends the same request, to reproduce a failure by hand. Credentials show as
 * `Authorization: Bearer ***` unless `showSecrets` (`--show-secrets`): reports end up in CI logs.
 *
 * @example
 * toCurl({ method: 'GET', url: 'http://127.0.0.1:4010/api/users/me', headers: { authorization: 'Bearer t0k3n' } })
 * // "curl -i -X GET -H 'authorization: Bearer ***' http://127.0.0.1:4010/api/users/me"
 */
export function toCurl(request: ExchangeRequest, options: { showSecrets?: boolean } = {}): string {
  const parts = ['curl', '-i', '-X', request.method]
  for (const [name, value] of Object.entries(request.headers)) {
    parts.push('-H', quote(`${name}: ${options.showSecrets ? value : maskHeaderValue(name, value)}`))
  }
  if (request.body !== undefined) {
    const body = request.body.length > 2000 ? `${request.body.slice(0, 2000)}…` : request.body
    parts.push('--data-binary', request.bodyEncoding === 'latin1' ? quoteBytes(body) : quote(body))
  }
  parts.push(quote(request.url))
  return parts.join(' ')
}

/** Bash's $'…' form, each character one byte: the same bytes, those that are not UTF-8 included. */
function quoteBytes(value: string): string {
  if (!/[^\x20-\x7e]/.test(value)) return quote(value)
  const escaped = Array.from(value, (char) => {
    const code = char.charCodeAt(0)
    if (char === "'" || char === '\\') return `\\${char}`
    // Above U+00FF only the ellipsis of a cut body: shown as text.
    return (code >= 0x20 && code <= 0x7e) || code > 0xff ? char : `\\x${code.toString(16).padStart(2, '0')}`
  })
  return `$'${escaped.join('')}'`
}
