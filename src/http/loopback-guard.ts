import { BlockList, isIP } from 'node:net'

/** The loopback addresses: 127.0.0.0/8 and ::1 (IPv4-mapped ::ffff:127.x.y.z too). Built once, never changed. */
const LOOPBACK = loopbackAddresses()

function loopbackAddresses(): BlockList {
  const list = new BlockList()
  list.addSubnet('127.0.0.0', 8, 'ipv4')
  list.addAddress('::1', 'ipv6')
  return list
}

/** Whether an IP address (IPv4, IPv6, IPv4-mapped IPv6: a socket's, a resolved name's) is a loopback one. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false
  const family = isIP(address)
  if (family === 0) return false
  return LOOPBACK.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

/** A host as URL.hostname writes it, compared case-insensitively and without IPv6 brackets. */
export function normalizeHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
}

/**
 * Whether a host to bind (`--host`: IPv6 bare or in brackets) keeps a server to this machine: `localhost`
 * or a loopback address. Not a `*.localhost` name: the system's resolver may send it anywhere.
 */
export function isLoopbackName(host: string): boolean {
  const name = normalizeHost(host)
  return name === 'localhost' || isLoopbackAddress(name)
}

/**
 * Whether a Host header (with or without its port) names a loopback address. A server on a loopback
 * address that answers another name may be reached by a page under a DNS name rebound to 127.0.0.1:
 * the mock's control routes and the proxy's own routes refuse it. `*.localhost` names pass: browsers
 * resolve them to loopback themselves, whatever DNS says.
 */
export function isLoopbackHost(host: string): boolean {
  const bracketed = /^(\[[^\]]*\])(?::\d*)?$/.exec(host)
  const name = normalizeHost(bracketed ? (bracketed[1] as string) : host.replace(/:\d*$/, ''))
  return name.endsWith('.localhost') || isLoopbackName(name)
}
