import { connect } from 'node:net'

/**
 * Whether anything at the URL's host and port accepts a TCP connection within the timeout: what tells
 * a server that hangs (it accepts, then never answers) from one that is not there at all.
 *
 * @example
 * await acceptsConnections('http://127.0.0.1:4010', 1000) // true while the mock runs
 */
export function acceptsConnections(baseUrl: string, timeoutMs: number): Promise<boolean> {
  const url = new URL(baseUrl)
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
  // `[::1]` is how a URL writes an IPv6 host; a socket wants it bare.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: timeoutMs })
    const settle = (accepted: boolean) => {
      socket.destroy()
      resolve(accepted)
    }
    socket.once('connect', () => settle(true))
    socket.once('timeout', () => settle(false))
    socket.once('error', () => settle(false))
  })
}
