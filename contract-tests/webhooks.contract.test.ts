import { afterAll, beforeAll, describe, test, type TestContext } from 'vitest'
import type { DisposableUser } from '../src/contract/target.js'
import { userOf, type ApiUser } from './support/api-user.js'
import { readDisposable } from './support/disposable-user.js'
import { restoreAfter } from './support/restore-user.js'
import {
  expectRule,
  expectStatus,
  needActor,
  needDisposable,
  needWrites,
  send,
  skipByChoice,
  suite,
} from './support/suite.js'
import { randomText, userPath } from './support/user-paths.js'
import {
  differingFields,
  eventOf,
  expectWellFormed,
  firstDeliveries,
  type EventPayload,
} from './support/webhook-events.js'
import { WebhookReceiver, type ReceivedDelivery } from './support/webhook-receiver.js'

// CONTRACT §6 (profile): the events a backend sends, received by the suite's own receiver on disposable
// users. The receiver must be subscribed in the backend beforehand (docs/contract-suite.md, "Webhooks"),
// or, on a users-api-kit mock, it subscribes itself (autoSubscribe).

const settings = suite.target.webhooks
/** How long an event may take to arrive. */
const DELIVERY_MS = (settings ? (settings.deliverWithinSeconds ?? 10) : 10) * 1000
/** How long the retry of a refused delivery may take (the target may say more). */
const RETRY_MS = (settings ? (settings.retryWithinSeconds ?? 30) : 30) * 1000
/** After the last expected event, how long a stray one gets to arrive. */
const GRACE_MS = 300

const SENT =
  'A PATCH that changed a field sends user.updated; a DELETE that answered 204 sends user.deleted (docs/contract.md §6)'
const NOTHING = 'A no-op PATCH and a rejected request send no event (docs/contract.md §6)'
const VISIBLE = 'An event is sent after the change is visible through the API (docs/contract.md §6)'
const CONTENT = 'The payload holds the user after the change, the fields changed and the actor (docs/contract.md §6)'
const RETRIED = 'A delivery without a 2xx answer is retried, with the same webhook-id (docs/contract.md §6)'
const ORDERED = "One user's events are sent in the order of the changes, one webhook-id per event (docs/contract.md §6)"

let receiver: WebhookReceiver | undefined
let unsubscribe: (() => Promise<void>) | undefined

beforeAll(async () => {
  if (!settings || suite.layer === 'core' || suite.readOnly) return
  receiver = await WebhookReceiver.start(settings, inspect)
  if (settings.autoSubscribe) unsubscribe = await subscribeOnMock(receiver)
})

afterAll(async () => {
  await unsubscribe?.()
  await receiver?.close()
})

/** The receiver, or the check is skipped, saying why (a choice, or what the target lacks). */
function needReceiver(context: TestContext): WebhookReceiver {
  if (settings === false) skipByChoice(context, 'the target says "webhooks": false (the backend sends no webhooks)')
  if (!settings) {
    context.skip('the target names no webhook receiver ("webhooks" in the target file, see docs/contract-suite.md)')
  }
  needWrites(context)
  needActor(context, 'owner')
  return receiver as WebhookReceiver
}

describe('webhooks: user.updated and user.deleted', () => {
  test('[profile] a PATCH that changes a field sends a signed user.updated with the changes, the user after them and the actor, once the change is visible', async (context) => {
    const hooks = needReceiver(context)
    const user = needDisposable(context, 'webhookUpdate')
    await restoreAfter(context, user)
    const owner = await ownerId()
    const name = `Webhook ${randomText(8)}`
    const patch = await send({ as: 'owner', method: 'PATCH', path: userPath(user.id), json: { name } })
    expectStatus(patch, 200, 'An owner may rename a user (docs/contract.md §3)')
    const after = userOf(patch)
    const delivery = await hooks.next(
      (candidate) => eventOf(candidate, 'user.updated', user.id)?.data.user.name === name,
      DELIVERY_MS,
    )
    expectRule(
      patch,
      delivery !== undefined,
      SENT,
      `Received: no user.updated for ${user.id} within ${DELIVERY_MS / 1000} s of this PATCH (${hooks.deliveries.length} deliveries so far)`,
    )
    const payload = expectWellFormed(patch, delivery as ReceivedDelivery, 'user.updated')
    expectVisible(patch, delivery as ReceivedDelivery, payload)
    expectRule(
      patch,
      JSON.stringify(payload.data.changes) === '["name"]',
      CONTENT,
      `Received: "changes": ${JSON.stringify(payload.data.changes)}\nExpected: ["name"]`,
    )
    const differing = differingFields(payload.data.user, after)
    expectRule(
      patch,
      differing.length === 0,
      CONTENT,
      `Received: data.user differs from the PATCH's answer in ${differing.join(', ')}\n${JSON.stringify(payload.data.user)}`,
    )
    expectRule(
      patch,
      payload.data.actorId === owner,
      CONTENT,
      `Received: "actorId": ${JSON.stringify(payload.data.actorId)}\nExpected: ${owner} (the owner who sent the PATCH)`,
    )
  })

  test('[profile] changes sent back to back give one event each, with their own webhook-ids, in the order of the changes', async (context) => {
    const hooks = needReceiver(context)
    const user = needDisposable(context, 'webhookUpdate')
    await restoreAfter(context, user)
    const names = [`First ${randomText(8)}`, `Second ${randomText(8)}`] as const
    const start = hooks.deliveries.length
    let last = await send({ as: 'owner', method: 'PATCH', path: userPath(user.id), json: { name: names[0] } })
    expectStatus(last, 200, 'An owner may rename a user (docs/contract.md §3)')
    last = await send({ as: 'owner', method: 'PATCH', path: userPath(user.id), json: { name: names[1] } })
    expectStatus(last, 200, 'An owner may rename a user (docs/contract.md §3)')
    const second = await hooks.next(
      (candidate) => eventOf(candidate, 'user.updated', user.id)?.data.user.name === names[1],
      DELIVERY_MS,
    )
    expectRule(
      last,
      second !== undefined,
      SENT,
      `Received: no user.updated for the second PATCH within ${DELIVERY_MS / 1000} s`,
    )
    await pause(GRACE_MS)
    const firsts = firstDeliveries(hooks.deliveries.slice(start)).filter((delivery) =>
      eventOf(delivery, 'user.updated', user.id),
    )
    const order = firsts.map((delivery) => (delivery.payload as EventPayload).data.user.name)
    const ofFirst = order.filter((name) => name === names[0]).length
    expectRule(
      last,
      ofFirst === 1,
      ORDERED,
      `Received: ${ofFirst} events (distinct webhook-ids) for the first change\nExpected: exactly 1`,
    )
    expectRule(
      last,
      order.indexOf(names[0]) < order.indexOf(names[1]),
      ORDERED,
      `Received, in this order: ${order.map((name) => JSON.stringify(name)).join(', ')}\nExpected: ${JSON.stringify(names[0])} before ${JSON.stringify(names[1])}`,
    )
  })

  test('[profile] a no-op PATCH and rejected requests (400, 403) send no event', async (context) => {
    const hooks = needReceiver(context)
    needActor(context, 'viewer')
    const user = needDisposable(context, 'webhookUpdate')
    await restoreAfter(context, user)
    // Everything sent before this check has arrived once this marker has: one user's events are ordered.
    const before = await rename(hooks, user, `Before ${randomText(8)}`)
    const known = new Set(hooks.deliveries.map((delivery) => delivery.id))
    const current = (await readDisposable(context, user)).name
    const quiet: Array<[string, Parameters<typeof send>[0], number]> = [
      [
        'a PATCH to the current name',
        { as: 'owner', method: 'PATCH', path: userPath(user.id), json: { name: current } },
        200,
      ],
      [
        'a PATCH with an unknown key',
        { as: 'owner', method: 'PATCH', path: userPath(user.id), json: { name: 'Never', nickname: 'x' } },
        400,
      ],
      [
        "a viewer's PATCH of another user",
        { as: 'viewer', method: 'PATCH', path: userPath(user.id), json: { name: 'Never' } },
        403,
      ],
    ]
    for (const [, request, status] of quiet) expectStatus(await send(request), status, NOTHING)
    const after = await rename(hooks, user, `After ${randomText(8)}`)
    await pause(GRACE_MS)
    const stray = firstDeliveries(hooks.deliveries).filter(
      (delivery) => !known.has(delivery.id) && delivery.id !== after.id && eventOf(delivery, 'user.updated', user.id),
    )
    expectRule(
      before.exchange,
      stray.length === 0,
      NOTHING,
      `Received: ${stray.length} event(s) for ${user.id} after ${quiet.map(([label]) => label).join(', ')}:\n${stray.map((delivery) => delivery.body.slice(0, 300)).join('\n')}`,
    )
  })

  test(
    '[profile] a refused delivery is retried with the same webhook-id and event',
    { timeout: RETRY_MS + DELIVERY_MS + 10_000 },
    async (context) => {
      const hooks = needReceiver(context)
      const user = needDisposable(context, 'webhookUpdate')
      await restoreAfter(context, user)
      const name = `Retried ${randomText(8)}`
      const isIt = (payload: unknown): boolean => (payload as EventPayload | undefined)?.data?.user?.name === name
      hooks.refuseFirst(isIt)
      const patch = await send({ as: 'owner', method: 'PATCH', path: userPath(user.id), json: { name } })
      expectStatus(patch, 200, 'An owner may rename a user (docs/contract.md §3)')
      const refused = await hooks.next((delivery) => delivery.refused && isIt(delivery.payload), DELIVERY_MS)
      expectRule(
        patch,
        refused !== undefined,
        SENT,
        `Received: no user.updated for this PATCH within ${DELIVERY_MS / 1000} s`,
      )
      const first = refused as ReceivedDelivery
      const retry = await hooks.next((delivery) => !delivery.refused && delivery.id === first.id, RETRY_MS)
      const others = hooks.deliveries
        .filter((delivery) => delivery !== first && isIt(delivery.payload))
        .map((delivery) => delivery.id)
      expectRule(
        patch,
        retry !== undefined,
        RETRIED,
        `The receiver answered 500 to the delivery ${JSON.stringify(first.id)}.\nReceived: ${others.length === 0 ? 'no retry' : `deliveries of the same change with other webhook-ids: ${others.join(', ')}`} within ${RETRY_MS / 1000} s\nExpected: a retry with webhook-id ${JSON.stringify(first.id)} (set "retryWithinSeconds" in the target if your first retry comes later)`,
      )
      const payload = expectWellFormed(patch, retry as ReceivedDelivery, 'user.updated')
      expectRule(
        patch,
        payload.type === 'user.updated' && isIt(payload),
        RETRIED,
        `Received, on the retry: ${(retry as ReceivedDelivery).body.slice(0, 300)}\nExpected: the same event as the first delivery`,
      )
    },
  )

  test('[profile] a DELETE sends a signed user.deleted with the user as they were and the actor, once they are gone', async (context) => {
    const hooks = needReceiver(context)
    const user = needDisposable(context, 'webhookDelete')
    const before = await readDisposable(context, user)
    const owner = await ownerId()
    const deletion = await send({ as: 'owner', method: 'DELETE', path: userPath(user.id) })
    expectStatus(deletion, 204, 'An owner may delete a user who is not an owner (docs/contract.md §3)')
    const delivery = await hooks.next(
      (candidate) => eventOf(candidate, 'user.deleted', user.id) !== undefined,
      DELIVERY_MS,
    )
    expectRule(
      deletion,
      delivery !== undefined,
      SENT,
      `Received: no user.deleted for ${user.id} within ${DELIVERY_MS / 1000} s of this DELETE`,
    )
    const payload = expectWellFormed(deletion, delivery as ReceivedDelivery, 'user.deleted')
    expectVisible(deletion, delivery as ReceivedDelivery, payload)
    const differing = differingFields(payload.data.user, before)
    expectRule(
      deletion,
      differing.length === 0,
      CONTENT,
      `Received: data.user differs from the user before the DELETE in ${differing.join(', ')}\n${JSON.stringify(payload.data.user)}`,
    )
    expectRule(
      deletion,
      payload.data.actorId === owner,
      CONTENT,
      `Received: "actorId": ${JSON.stringify(payload.data.actorId)}\nExpected: ${owner} (the owner who sent the DELETE)`,
    )
  })
})

/** Renames a user and waits for the event: a marker in the stream of their events. */
async function rename(hooks: WebhookReceiver, user: DisposableUser, name: string) {
  const exchange = await send({ as: 'owner', method: 'PATCH', path: userPath(user.id), json: { name } })
  expectStatus(exchange, 200, 'An owner may rename a user (docs/contract.md §3)')
  const delivery = await hooks.next(
    (candidate) => eventOf(candidate, 'user.updated', user.id)?.data.user.name === name,
    DELIVERY_MS,
  )
  expectRule(
    exchange,
    delivery !== undefined,
    SENT,
    `Received: no user.updated for ${user.id} within ${DELIVERY_MS / 1000} s of this PATCH`,
  )
  return { exchange, id: (delivery as ReceivedDelivery).id }
}

/**
 * What the receiver saw of the user when the event first arrived (inspect): the change, or a later one
 * (updatedAt no earlier), for user.updated; a 404 for user.deleted.
 */
function expectVisible(
  exchange: Parameters<typeof expectRule>[0],
  delivery: ReceivedDelivery,
  payload: EventPayload,
): void {
  const seen = delivery.seen as { status?: number; user?: ApiUser; error?: string } | undefined
  if (payload.type === 'user.deleted') {
    expectRule(
      exchange,
      seen?.status === 404,
      VISIBLE,
      `When user.deleted arrived, GET ${userPath(payload.data.user.id)} answered ${seen?.status ?? seen?.error}\nExpected: 404 (the user already gone)`,
    )
    return
  }
  const visible = seen?.user !== undefined && Date.parse(seen.user.updatedAt) >= Date.parse(payload.data.user.updatedAt)
  expectRule(
    exchange,
    visible,
    VISIBLE,
    `When user.updated arrived, GET ${userPath(payload.data.user.id)} showed ${seen?.user ? `updatedAt ${seen.user.updatedAt}, name ${JSON.stringify(seen.user.name)}` : (seen?.status ?? seen?.error)}\nExpected: the change (updatedAt ${payload.data.user.updatedAt}) or a later one`,
  )
}

/** On an event's first arrival, before answering it: the user as the API shows them now. */
async function inspect(payload: unknown): Promise<unknown> {
  const id = (payload as Partial<EventPayload> | undefined)?.data?.user?.id
  if (typeof id !== 'string' || !suite.target.actors.owner) return undefined
  const exchange = await suite.client.send({ path: userPath(id), token: suite.target.actors.owner.token })
  const { status } = exchange.response
  return status === 200 ? { status, user: userOf(exchange) } : { status }
}

async function ownerId(): Promise<string> {
  const me = await send({ as: 'owner', path: '/api/users/me' })
  expectStatus(me, 200, 'An active user may call GET /api/users/me (docs/contract.md §2)')
  return userOf(me).id
}

/** autoSubscribe: the receiver subscribes itself through the mock's control routes, for the owner's organization. */
async function subscribeOnMock(hooks: WebhookReceiver): Promise<() => Promise<void>> {
  const base = suite.target.baseUrl
  const token = settings ? settings.controlToken : undefined
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  }
  const owner = suite.target.actors.owner
  const me = owner
    ? await fetch(`${base}/api/users/me`, { headers: { authorization: `Bearer ${owner.token}` } })
    : undefined
  const organizationId = me?.ok
    ? ((await me.json()) as { data?: { organizationId?: string } }).data?.organizationId
    : undefined
  const response = await fetch(`${base}/__mock/webhooks`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      url: hooks.url,
      secret: (settings || undefined)?.secret,
      ...(organizationId ? { organizationId } : {}),
    }),
    signal: AbortSignal.timeout(10_000),
  })
  if (response.status !== 201) {
    throw new Error(
      `"autoSubscribe": POST ${base}/__mock/webhooks answered ${response.status}: only a users-api-kit mock subscribes the receiver itself; for another backend, subscribe ${hooks.url} there and drop autoSubscribe.`,
    )
  }
  const { id } = (await response.json()) as { id: string }
  return async () => {
    await fetch(`${base}/__mock/webhooks/${id}`, {
      method: 'DELETE',
      headers,
      signal: AbortSignal.timeout(10_000),
    }).catch(() => undefined)
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
