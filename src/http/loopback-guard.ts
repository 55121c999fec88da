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

/**
 * Whether a host name or address, as `--host` or a URL's hostname gives it (IPv6 bare or in brackets),
 * names this machine: `localhost`, a `*.localhost` name, or a loopback address.
 */
export function isLoopbackName(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
  return name === 'localhost' || name.endsWith('.localhost') || isLoopbackAddress(name)
}

/**
 * Whether a Host header (with or without its port) names a loopback address. A server on a loopback
 * address that answers another name may be reached by a page under a DNS name rebound to 127.0.0.1:
 * the mock's control routes and the proxy's own routes refuse it.
 */
export function isLoopbackHost(host: string): boolean {
  const bracketed = /^(\[[^\]]*\])(?::\d*)?$/.exec(host)
  return isLoopbackName(bracketed ? (bracketed[1] as string) : host.replace(/:\d*$/, ''))
}
