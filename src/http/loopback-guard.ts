import { isIP } from 'node:net'

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]'])

/** Whether a socket's local address is a loopback one: a server that only its own machine reaches. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.')
}

/**
 * Whether a Host header (with or without its port) names a loopback address. A server on a loopback
 * address that answers another name may be reached by a page under a DNS name rebound to 127.0.0.1:
 * the mock's control routes and the proxy's own routes refuse it.
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.replace(/:\d+$/, '').toLowerCase()
  if (LOOPBACK_NAMES.has(name) || name.endsWith('.localhost')) return true
  return isIP(name) === 4 && name.startsWith('127.')
}
