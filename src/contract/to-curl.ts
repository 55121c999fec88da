import type { ExchangeRequest } from './exchange.js'

/** A curl command that sends the same request, to reproduce a failure by hand. */
export function toCurl(request: ExchangeRequest): string {
  const parts = ['curl', '-i', '-X', request.method]
  for (const [name, value] of Object.entries(request.headers)) parts.push('-H', quote(`${name}: ${value}`))
  if (request.body !== undefined) {
    parts.push('--data-binary', quote(request.body.length > 2000 ? `${request.body.slice(0, 2000)}…` : request.body))
  }
  parts.push(quote(request.url))
  return parts.join(' ')
}

function quote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`
}
