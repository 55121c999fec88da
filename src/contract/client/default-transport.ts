import { createHttpTransport } from '../../http/http-client.js'
import type { Transport } from '../../http/transport.js'

let shared: Transport | undefined

/**
 * The transport of every client in this thread that is given none: node:http's, unless `useTransport`
 * named another.
 */
export function defaultTransport(): Transport {
  return (shared ??= createHttpTransport())
}

/** Makes `transport` this thread's default: how a run answers requests in process. */
export function useTransport(transport: Transport): void {
  shared = transport
}
