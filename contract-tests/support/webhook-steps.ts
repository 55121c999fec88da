import type { Exchange } from '../../src/contract/client/exchange.js'
import type { ActorName, DisposableUser } from '../../src/contract/target/target.js'
import { userOf, type ApiUser } from './api-user.js'
import { readMe } from './read-users.js'
import { expectRule, expectStatus, send, suite } from './suite.js'
import { userPath } from './user-paths.js'
import { eventOf, expectWellFormed, type EventPayload } from './webhook-events.js'
import type { ReceivedDelivery, WebhookReceiver } from './webhook-receiver.js'
import { CONTENT, DELIVERY_MS, SENT, VISIBLE } from './webhook-rules.js'

// The steps the webhook checks are made of (webhooks.contract.test.ts): a change and its event, and what
// the event must say of it.

/**
 * Sends a change as `as` and waits for its user.updated (the first new event whose payload `matches`):
 * the exchange and the payload, checked well-formed and visible on arrival.
 */
export async function changeAndReceive(
  hooks: WebhookReceiver,
  as: ActorName,
  user: DisposableUser,
  json: Record<string, unknown>,
  matches: (event: EventPayload) => boolean,
): Promise<{ exchange: Exchange; payload: EventPayload }> {
  const known = new Set(hooks.deliveries.map((delivery) => delivery.id))
  const exchange = await send({ as, method: 'PATCH', path: userPath(user.id), json })
  expectStatus(exchange, 200, `The ${as} may send this PATCH (docs/contract.md §3)`)
  const delivery = await hooks.next(
    (candidate) => {
      const event = eventOf(candidate, 'user.updated', user.id)
      return !known.has(candidate.id) && event !== undefined && matches(event)
    },
    DELIVERY_MS,
    'user.updated',
  )
  expectRule(
    exchange,
    delivery !== undefined,
    SENT,
    `Received: no user.updated for ${user.id} within ${DELIVERY_MS / 1000} s of this PATCH (${hooks.deliveries.length} deliveries so far)${hooks.missedNote('user.updated')}`,
  )
  const payload = expectWellFormed(exchange, delivery as ReceivedDelivery, 'user.updated')
  expectVisible(exchange, delivery as ReceivedDelivery, payload)
  return { exchange, payload }
}

/** Renames a user and waits for the event: a marker in the stream of their events. */
export async function rename(
  hooks: WebhookReceiver,
  user: DisposableUser,
  name: string,
): Promise<{ exchange: Exchange; id: string }> {
  const exchange = await send({ as: 'owner', method: 'PATCH', path: userPath(user.id), json: { name } })
  expectStatus(exchange, 200, 'An owner may rename a user (docs/contract.md §3)')
  const delivery = await hooks.next(
    (candidate) => eventOf(candidate, 'user.updated', user.id)?.data.user.name === name,
    DELIVERY_MS,
    'user.updated',
  )
  expectRule(
    exchange,
    delivery !== undefined,
    SENT,
    `Received: no user.updated for ${user.id} within ${DELIVERY_MS / 1000} s of this PATCH${hooks.missedNote('user.updated')}`,
  )
  return { exchange, id: (delivery as ReceivedDelivery).id }
}

/** `changes` names exactly these fields, in any order. */
export function expectChanges(exchange: Exchange, payload: EventPayload, fields: string[]): void {
  const changes = payload.data.changes ?? []
  expectRule(
    exchange,
    changes.length === fields.length && fields.every((field) => changes.includes(field)),
    CONTENT,
    `Received: "changes": ${JSON.stringify(payload.data.changes)} for the PATCH ${exchange.request.body ?? ''}\nExpected: ${JSON.stringify(fields)} (the fields whose value changed)`,
  )
}

/** `actorId` is the user who sent the change (`who`, in words). */
export function expectActor(exchange: Exchange, payload: EventPayload, id: string, who: string): void {
  expectRule(
    exchange,
    payload.data.actorId === id,
    CONTENT,
    `Received: "actorId": ${JSON.stringify(payload.data.actorId)}\nExpected: ${id} (${who})`,
  )
}

/**
 * What the receiver saw of the user when the event first arrived (inspectUser): the change, or a later one
 * (updatedAt no earlier), for user.updated; a 404 for user.deleted.
 */
export function expectVisible(exchange: Exchange, delivery: ReceivedDelivery, payload: EventPayload): void {
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

/** On an event's first arrival, before the receiver answers it: the user as the API shows them now. */
export async function inspectUser(payload: unknown): Promise<unknown> {
  const id = (payload as Partial<EventPayload> | undefined)?.data?.user?.id
  if (typeof id !== 'string' || !suite.target.actors.owner) return undefined
  const exchange = await suite.client.send({ path: userPath(id), token: suite.target.actors.owner.token })
  const { status } = exchange.response
  return status === 200 ? { status, user: userOf(exchange) } : { status }
}

/** The id of an actor of the target, as they read themselves. */
export async function actorId(actor: ActorName): Promise<string> {
  return (await readMe(actor)).id
}
