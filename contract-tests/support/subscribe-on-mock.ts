import { ContractViolation } from '../../src/contract/client/contract-violation.js'
import type { WebhookReceiverSettings } from '../../src/contract/target/target.js'
import { readMe } from './read-users.js'
import { suite } from './suite.js'
import type { WebhookReceiver } from './webhook-receiver.js'

/**
 * autoSubscribe: the receiver subscribes itself through a users-api-kit mock's control routes
 * (POST /__mock/webhooks), for the owner's organization, and the function returned unsubscribes it. The
 * control routes are no part of the users API: their answers are read within the run's limits by the
 * suite's client, and judged here.
 */
export async function subscribeOnMock(
  hooks: WebhookReceiver,
  settings: WebhookReceiverSettings,
): Promise<() => Promise<void>> {
  const base = suite.target.baseUrl
  const authorization: Record<string, string> = settings.controlToken
    ? { authorization: `Bearer ${settings.controlToken}` }
    : {}
  // The owner's organization alone: another organization's events must not reach the receiver (§6).
  const organizationId = suite.target.actors.owner ? (await readMe('owner')).organizationId : undefined
  const subscribed = await suite.client.sendOutsideTheApi({
    method: 'POST',
    path: '/__mock/webhooks',
    headers: authorization,
    json: { url: hooks.url, secret: settings.secret, ...(organizationId ? { organizationId } : {}) },
  })
  const { status, body, refused } = subscribed.response
  const id = (body as { id?: unknown } | undefined)?.id
  if (status !== 201 || typeof id !== 'string') {
    const answer = refused ? `${status} with ${refused.reason}` : status === 201 ? '201 without an id' : String(status)
    throw new Error(
      `"autoSubscribe": POST ${base}/__mock/webhooks answered ${answer}: only a users-api-kit mock subscribes the receiver itself; for another backend, subscribe ${hooks.url} there and drop autoSubscribe.`,
    )
  }
  return async () => {
    // No body, so no Content-Type: a DELETE that claims JSON and sends none is a 400.
    const path = `/__mock/webhooks/${encodeURIComponent(id)}`
    const why = await suite.client.sendOutsideTheApi({ method: 'DELETE', path, headers: authorization }).then(
      ({ response }) => (response.status >= 200 && response.status <= 299 ? undefined : `answered ${response.status}`),
      (error: unknown) => (error instanceof ContractViolation ? error.findings[0]?.message : String(error)),
    )
    if (why !== undefined) {
      console.warn(
        `users-api-kit verify: could not unsubscribe the webhook receiver ${hooks.url} (DELETE ${base}${path} ${why}): remove it by hand.`,
      )
    }
  }
}
