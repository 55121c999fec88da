import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

export const SOAK_WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

/** What the soak's receiver saw. */
export interface WebhookSinkResult {
  deliveries: number
  events: number
  refused: number
  badSignatures: number
  /** From the event's time (payload `timestamp`) to its first arrival, ms. */
  latencyMs: { p50: number; p99: number }
  delayMs: number
  refuseEvery: number
}

/**
 * A slow webhook receiver for the soak: answers each delivery after `delayMs`, refuses every
 * `refuseEvery`-th first delivery with a 500 (so retries run too), and verifies every signature.
 */
export async function startWebhookSink(delayMs = 20, refuseEvery = 10) {
  const verifier = new Webhook(SOAK_WEBHOOK_SECRET)
  const firstSeen = new Map<string, number>()
  const latencies: number[] = []
  let deliveries = 0
  let refused = 0
  let badSignatures = 0
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      deliveries++
      const body = Buffer.concat(chunks).toString('utf8')
      const id = String(request.headers['webhook-id'])
      try {
        verifier.verify(body, {
          'webhook-id': id,
          'webhook-timestamp': String(request.headers['webhook-timestamp']),
          'webhook-signature': String(request.headers['webhook-signature']),
        })
      } catch {
        badSignatures++
      }
      let status = 204
      if (!firstSeen.has(id)) {
        firstSeen.set(id, Date.now())
        latencies.push(Date.now() - Date.parse((JSON.parse(body) as { timestamp: string }).timestamp))
        if (firstSeen.size % refuseEvery === 0) {
          status = 500
          refused++
        }
      }
      setTimeout(() => response.writeHead(status).end(), delayMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    stop(): Promise<WebhookSinkResult> {
      server.closeAllConnections()
      const sorted = [...latencies].sort((a, b) => a - b)
      const rank = (share: number): number => sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)] ?? 0
      return new Promise((resolve) =>
        server.close(() =>
          resolve({
            deliveries,
            events: firstSeen.size,
            refused,
            badSignatures,
            latencyMs: { p50: rank(0.5), p99: rank(0.99) },
            delayMs,
            refuseEvery,
          }),
        ),
      )
    },
  }
}
