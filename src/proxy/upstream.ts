import type { ClientRequest, RequestOptions } from 'node:http'
import { Agent as HttpAgent, request as httpRequest } from '../http/node-http.js'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'

/**
 * The one origin the proxy forwards to (`--upstream`), and the connections it keeps to it. The client
 * never chooses it: every request goes to this origin, under its path prefix if it has one.
 */
export interface Upstream {
  /** `http://127.0.0.1:4010`, `https://api.example.com/v2`: no trailing slash. */
  url: string
  /** `127.0.0.1:4010`: what Host says to it. */
  host: string
  /** A request to the upstream; `target` is the client's own (path and query). */
  request(method: string, target: string, rawHeaders: string[]): ClientRequest
  /** Ends the kept-alive connections. */
  close(): void
}

/** Connections to the upstream a proxy keeps at most: enough for a browser, a test run, a load test. */
const MAX_SOCKETS = 256

/**
 * Reads `--upstream`: an http or https URL with no credentials, query or fragment.
 *
 * @throws Error saying what is wrong with it.
 * @example
 * const upstream = openUpstream('http://127.0.0.1:4010')
 */
export function openUpstream(text: string): Upstream {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new Error(`--upstream must be a URL such as http://127.0.0.1:4010 (got "${text}").`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`--upstream must be http or https (got ${url.protocol}).`)
  if (url.username || url.password) throw new Error('--upstream may not hold credentials: clients send their own.')
  if (url.search || url.hash) throw new Error('--upstream is an origin and a path prefix, without a query or fragment.')
  const secure = url.protocol === 'https:'
  const basePath = url.pathname.replace(/\/+$/, '')
  const agentOptions = { keepAlive: true, maxSockets: MAX_SOCKETS }
  const agent = secure ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions)
  const send = secure ? httpsRequest : httpRequest
  return {
    url: `${url.origin}${basePath}`,
    host: url.host,
    request(method, target, rawHeaders) {
      const options: RequestOptions = {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || (secure ? 443 : 80),
        method,
        path: `${basePath}${target}`,
        headers: rawHeaders,
        agent,
        // Headers as the client wrote them, their case kept.
        setHost: false,
      }
      return send(options)
    },
    close() {
      agent.destroy()
    },
  }
}
