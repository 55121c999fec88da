/**
 * RFC 9110 §7.6.1: the headers that belong to one connection, not to the message, and that a proxy
 * does not forward (besides those the Connection header names). The kit's two forwarders read them
 * from here: fuzz's guard (src/fuzz/response-guard.ts) and the proxy (src/proxy/forwarded-headers.ts).
 */
export const HOP_BY_HOP_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])
