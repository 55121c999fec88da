/** One delivery as it goes out: a POST of `body` with these headers, given up when `signal` aborts. */
export interface OutgoingDelivery {
  headers: Record<string, string>
  body: string
  signal: AbortSignal
}

/**
 * How the mock sends a delivery: resolves to the answer's status (its body is not the mock's business),
 * rejects when there was none. Redirects are answers, never followed.
 */
export type DeliverySender = (url: string, delivery: OutgoingDelivery) => Promise<number>

/**
 * The sender where nothing else is given (MSW in a browser, the fetch handler, code): the global fetch,
 * looked up at each delivery, so that a test that replaces it is used. The Node server gives its own,
 * which holds every delivery to the hosts it allows (src/server/webhook-hosts.ts).
 */
export const sendWithFetch: DeliverySender = async (url, { headers, body, signal }) => {
  const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal })
  // The answer's body is never read: a receiver that sends an endless one costs nothing.
  await response.body?.cancel().catch(() => undefined)
  return response.status
}
