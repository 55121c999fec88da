import type { ExchangeRequest } from './exchange.js'
import { maskHeaderValue } from './redact-secrets.js'

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
    parts.push('--data-binary', quote(request.body.length > 2000 ? `${request.body.slice(0, 2000)}…` : request.body))
  }
  parts.push(quote(request.url))
  return parts.join(' ')
}

function quote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`
}
