import { setTimeout as pause } from 'node:timers/promises'
import { describe } from 'vitest'
import type { Exchange } from '../src/contract/client/exchange.js'
import type { ActorName } from '../src/contract/target/target.js'
import { ContractViolation } from '../src/contract/client/contract-violation.js'
import { userOf, type ApiUser } from './support/api-user.js'
import { BODY_LIMIT, bodyOfSize } from './support/body-of-size.js'
import { covers } from './support/covers.js'
import { readDisposable } from './support/disposable-user.js'
import { findUser, readMe } from './support/read-users.js'
import { startReceiverForTheFile } from './support/receiver-for-the-file.js'
import { restoreAfter } from './support/restore-user.js'
import {
  expectRule,
  expectStatus,
  needActor,
  needDisposable,
  send,
  SLOTS_OF_THE_WAITING_FILES,
  suite,
  type Request,
  test,
} from './support/suite.js'
import { randomText, userPath } from './support/user-paths.js'
import {
  differingFields,
  eventOf,
  expectWellFormed,
  firstDeliveries,
  type EventPayload,
} from './support/webhook-events.js'
import type { ReceivedDelivery } from './support/webhook-receiver.js'
import {
  CONTENT,
  DELIVERY_MS,
  GRACE_MS,
  NEVER_WAITS,
  NOTHING,
  ORDERED,
  ORGANIZATION,
  RETRIED,
  RETRIES,
  RETRY_MS,
  SENT,
  SIGNED_ONLY,
} from './support/webhook-rules.js'
import {
  actorId,
  changeAndReceive,
  expectActor,
  expectChanges,
  expectVisible,
  rename,
} from './support/webhook-steps.js'

// CONTRACT §6 (profile): the events a backend sends, received by the suite's own receiver on disposable
// users. The receiver must be subscribed in the backend beforehand, for the owner's organization
// (docs/contract-suite.md, "Webhooks"), or, on a users-api-kit mock, it subscribes itself (autoSubscribe).
// The checks run one after another: they share one disposable user, and each reads the stream of events.

/**
 * This file's two disposable users: one changed again and again, one deleted. Named in SLOTS_OF_THE_WAITING_FILES,
 * which lists-as-data reads around its measurements while this file runs beside it.
 */
const [UPDATED, DELETED] = SLOTS_OF_THE_WAITING_FILES

/** The receiver, or the check is skipped, saying why (a choice, or what the target lacks). */
const needReceiver = startReceiverForTheFile()

/** Each check of a lane starts once the one before it has ended. */
const IN_TURN = { concurrent: false }

/** A lane of checks, run beside the other lane of this file (vitest runs concurrent suites side by side). */
function lane(name: string, checks: () => void): void {
  describe(name, { concurrent: true }, checks)
}

describe('webhooks: user.updated and user.deleted', () => {
  // Two lanes side by side, each on a disposable user of its own, their checks one after another (they
  // read one user's stream of events). The second waits for what the backend takes its time over (a
  // delivery held, retries after a refusal) while the first goes on; a user's refused delivery holds back
  // that user's later events, so those checks need a user of their own.
  lane('user.updated, change after change on one user', () => {
    test(
      '[profile] a PATCH that changes a field sends a signed user.updated with the changes, the user after them and the actor, once the change is visible',
      {
        ...covers('§6.updated', '§6.payload', '§6.updated.data', '§6.signature', '§6.visible', '§6.document'),
        ...IN_TURN,
      },
      async (context) => {
        const hooks = needReceiver(context)
        const user = needDisposable(context, UPDATED)
        await restoreAfter(context, user)
        const owner = await actorId('owner')
        const name = `Webhook ${randomText(8)}`
        const { exchange, payload } = await changeAndReceive(hooks, 'owner', user, { name }, (event) => {
          return event.data.user.name === name
        })
        expectChanges(exchange, payload, ['name'])
        const differing = differingFields(payload.data.user, userOf(exchange))
        expectRule(
          exchange,
          differing.length === 0,
          CONTENT,
          `Received: data.user differs from the PATCH's answer in ${differing.join(', ')}\n${JSON.stringify(payload.data.user)}`,
        )
        expectActor(exchange, payload, owner, 'the owner who sent the PATCH')
      },
    )

    test(
      '[profile] "changes" names exactly the fields whose value changed: status alone, role alone, and not a field sent with its current value',
      { ...covers('§6.updated', '§6.updated.data'), ...IN_TURN },
      async (context) => {
        const hooks = needReceiver(context)
        needActor(context, 'admin')
        const user = needDisposable(context, UPDATED)
        const before = await restoreAfter(context, user)
        const admin = await actorId('admin')
        const steps: Array<{
          as: ActorName
          json: Record<string, unknown>
          is: (user: ApiUser) => boolean
          changes: string[]
        }> = [
          {
            as: 'owner',
            json: { status: 'SUSPENDED' },
            is: (after) => after.status === 'SUSPENDED',
            changes: ['status'],
          },
          {
            as: 'owner',
            json: { status: 'ACTIVE', name: before.name },
            is: (after) => after.status === 'ACTIVE' && after.role === before.role,
            changes: ['status'],
          },
          {
            as: 'admin',
            json: { role: 'CLIENT_ADMIN' },
            is: (after) => after.role === 'CLIENT_ADMIN',
            changes: ['role'],
          },
          {
            as: 'owner',
            json: { role: before.role, status: 'ACTIVE', name: ` ${before.name}\t` },
            is: (after) => after.role === before.role,
            changes: ['role'],
          },
        ]
        for (const step of steps) {
          const { exchange, payload } = await changeAndReceive(hooks, step.as, user, step.json, (event) =>
            step.is(event.data.user),
          )
          expectChanges(exchange, payload, step.changes)
          if (step.as === 'admin') expectActor(exchange, payload, admin, 'the admin who sent the PATCH')
        }
      },
    )

    test(
      '[profile] five changes sent back to back give one event each, with their own webhook-ids, in the order of the changes',
      { ...covers('§6.order', '§6.signature'), ...IN_TURN },
      async (context) => {
        const hooks = needReceiver(context)
        const user = needDisposable(context, UPDATED)
        await restoreAfter(context, user)
        const names = Array.from({ length: 5 }, (_, index) => `Change ${index + 1} ${randomText(8)}`)
        const start = hooks.deliveries.length
        let last: Exchange | undefined
        for (const name of names) {
          last = await send({ as: 'owner', method: 'PATCH', path: userPath(user.id), json: { name } })
          expectStatus(last, 200, 'An owner may rename a user (docs/contract.md §3)')
        }
        const exchange = last as Exchange
        const final = await hooks.next(
          (candidate) => eventOf(candidate, 'user.updated', user.id)?.data.user.name === names.at(-1),
          DELIVERY_MS,
          'user.updated',
        )
        expectRule(
          exchange,
          final !== undefined,
          SENT,
          `Received: no user.updated for the last of ${names.length} PATCHes within ${DELIVERY_MS / 1000} s${hooks.missedNote('user.updated')}`,
        )
        await pause(GRACE_MS)
        const firsts = firstDeliveries(hooks.deliveries.slice(start)).filter((delivery) =>
          eventOf(delivery, 'user.updated', user.id),
        )
        const order = firsts.map((delivery) => (delivery.payload as EventPayload).data.user.name)
        for (const name of names) {
          const count = order.filter((received) => received === name).length
          expectRule(
            exchange,
            count === 1,
            ORDERED,
            `Received: ${count} events (distinct webhook-ids) for the change to ${JSON.stringify(name)}\nExpected: exactly 1`,
          )
        }
        const received = order.filter((name) => names.includes(name))
        expectRule(
          exchange,
          received.every((name, index) => name === names[index]),
          ORDERED,
          `Received, in this order: ${received.map((name) => JSON.stringify(name)).join(', ')}\nExpected: ${names.map((name) => JSON.stringify(name)).join(', ')}`,
        )
      },
    )

    test(
      '[profile] a PATCH that changes nothing and every kind of refused request (400, 401, 403, 404, 405, 413, 415) send no event',
      { ...covers('§6.nothing'), ...IN_TURN },
      async (context) => {
        const hooks = needReceiver(context)
        needActor(context, 'viewer')
        const user = needDisposable(context, UPDATED)
        await restoreAfter(context, user)
        // Everything sent before this check has arrived once this marker has: one user's events are ordered.
        const before = await rename(hooks, user, `Before ${randomText(8)}`)
        const known = new Set(hooks.deliveries.map((delivery) => delivery.id))
        const current = await readDisposable(context, user)
        const path = userPath(user.id)
        const json = { 'content-type': 'application/json' }
        const quiet: Array<[string, Request, number]> = [
          ['a PATCH to the current name', { as: 'owner', method: 'PATCH', path, json: { name: current.name } }, 200],
          [
            'a PATCH to the current name with white space around it',
            { as: 'owner', method: 'PATCH', path, json: { name: `  ${current.name} ` } },
            200,
          ],
          [
            'a PATCH to the current role and status',
            { as: 'owner', method: 'PATCH', path, json: { role: current.role, status: current.status } },
            200,
          ],
          [
            'a PATCH with an unknown key',
            { as: 'owner', method: 'PATCH', path, json: { name: 'Never', nickname: 'x' } },
            400,
          ],
          [
            'a PATCH with a valid name beside a role of the wrong type',
            { as: 'owner', method: 'PATCH', path, json: { name: 'Never', role: 42 } },
            400,
          ],
          ['a PATCH without a token', { as: null, method: 'PATCH', path, json: { name: 'Never' } }, 401],
          ["a viewer's PATCH of another user", { as: 'viewer', method: 'PATCH', path, json: { name: 'Never' } }, 403],
          ["a viewer's DELETE of another user", { as: 'viewer', method: 'DELETE', path }, 403],
          ['a PUT', { as: 'owner', method: 'PUT', path, json: { name: 'Never' } }, 405],
          [
            'a PATCH over 16 KiB',
            { as: 'owner', method: 'PATCH', path, body: bodyOfSize(BODY_LIMIT + 1), headers: json },
            413,
          ],
          [
            'a PATCH sent as text/plain',
            { as: 'owner', method: 'PATCH', path, body: '{"name":"Never"}', headers: { 'content-type': 'text/plain' } },
            415,
          ],
          [
            'a PATCH with Content-Encoding: gzip',
            {
              as: 'owner',
              method: 'PATCH',
              path,
              body: '{"name":"Never"}',
              headers: { ...json, 'content-encoding': 'gzip' },
            },
            415,
          ],
        ]
        if (suite.target.actors.outsider) {
          quiet.push([
            "another organization's PATCH",
            { as: 'outsider', method: 'PATCH', path, json: { name: 'Never' } },
            404,
          ])
        }
        for (const [, request, status] of quiet) expectStatus(await send(request), status, NOTHING)
        const after = await rename(hooks, user, `After ${randomText(8)}`)
        await pause(GRACE_MS)
        const stray = firstDeliveries(hooks.deliveries).filter(
          (delivery) =>
            !known.has(delivery.id) && delivery.id !== after.id && eventOf(delivery, 'user.updated', user.id),
        )
        const deleted = hooks.deliveries.filter((delivery) => eventOf(delivery, 'user.deleted', user.id))
        expectRule(
          before.exchange,
          stray.length === 0 && deleted.length === 0,
          NOTHING,
          `Received: ${stray.length + deleted.length} event(s) for ${user.id} after ${quiet.map(([label]) => label).join(', ')}:\n${[...stray, ...deleted].map((delivery) => delivery.body.slice(0, 300)).join('\n')}`,
        )
      },
    )

    test(
      '[profile] a refused state change (409) sends no event for the INVITED user it names',
      { ...covers('§6.nothing'), ...IN_TURN },
      async (context) => {
        const hooks = needReceiver(context)
        const user = needDisposable(context, UPDATED)
        const invited = await findUser((candidate) => candidate.status === 'INVITED')
        if (!invited) return context.skip('the organization lists no INVITED user')
        await restoreAfter(context, user)
        const known = new Set(hooks.deliveries.map((delivery) => delivery.id))
        // The INVITED-user check of update-user sends the same: a correct backend changes nothing (409).
        const refused = await send({
          as: 'owner',
          method: 'PATCH',
          path: userPath(invited.id),
          json: { status: 'ACTIVE' },
        })
        expectStatus(refused, 409, 'PATCH never changes the status of an INVITED user: 409 (docs/contract.md §4)')
        await rename(hooks, user, `After ${randomText(8)}`)
        await pause(GRACE_MS)
        const stray = hooks.deliveries.filter(
          (delivery) =>
            !known.has(delivery.id) && (delivery.payload as EventPayload | undefined)?.data?.user?.id === invited.id,
        )
        expectRule(
          refused,
          stray.length === 0,
          NOTHING,
          `Received: ${stray.length} event(s) for the INVITED user ${invited.id} after a 409:\n${stray.map((delivery) => delivery.body.slice(0, 300)).join('\n')}`,
        )
      },
    )

    test(
      "[profile] a change in another organization sends no event to this organization's endpoint",
      { ...covers('§6.endpoints'), ...IN_TURN },
      async (context) => {
        const hooks = needReceiver(context)
        needActor(context, 'outsider')
        const user = needDisposable(context, UPDATED)
        await restoreAfter(context, user)
        // The outsider renames themselves (every role may) and is put back at once: the one change this
        // check makes to a user who is not disposable.
        const outsider = await readMe('outsider')
        const known = new Set(hooks.deliveries.map((delivery) => delivery.id))
        const renamed = await send({
          as: 'outsider',
          method: 'PATCH',
          path: userPath(outsider.id),
          json: { name: `${outsider.name.slice(0, 90)} ${randomText(4)}` },
        })
        const restored = await send({
          as: 'outsider',
          method: 'PATCH',
          path: userPath(outsider.id),
          json: { name: outsider.name },
        })
        expectStatus(renamed, 200, 'Every role may rename itself (docs/contract.md §3)')
        expectStatus(restored, 200, 'Every role may rename itself (docs/contract.md §3)')
        await rename(hooks, user, `After ${randomText(8)}`)
        await pause(GRACE_MS)
        const leaked = hooks.deliveries.filter((delivery) => {
          const event = delivery.payload as EventPayload | undefined
          return (
            !known.has(delivery.id) &&
            (event?.data?.user?.id === outsider.id || event?.data?.user?.organizationId === outsider.organizationId)
          )
        })
        expectRule(
          renamed,
          leaked.length === 0,
          ORGANIZATION,
          `Received: ${leaked.length} event(s) about ${outsider.id} of another organization at the endpoint subscribed for this one:\n${leaked.map((delivery) => delivery.body.slice(0, 300)).join('\n')}`,
        )
      },
    )
  })

  // The retries first: when none comes, the check after it does not wait for one again.
  lane('retries, deliveries held and refused, then user.deleted, on another user', () => {
    test(
      `[profile] a refused delivery is retried, at least ${RETRIES} times, with the same webhook-id and event`,
      { ...IN_TURN, ...covers('§6.retry', '§6.signature'), timeout: (RETRIES + 1) * RETRY_MS + DELIVERY_MS + 10_000 },
      async (context) => {
        const hooks = needReceiver(context)
        const user = needDisposable(context, DELETED)
        await restoreAfter(context, user)
        const name = `Retried ${randomText(8)}`
        const isIt = (payload: unknown): boolean => (payload as EventPayload | undefined)?.data?.user?.name === name
        hooks.refuse(isIt, RETRIES)
        const patch = await send({ as: 'owner', method: 'PATCH', path: userPath(user.id), json: { name } })
        expectStatus(patch, 200, 'An owner may rename a user (docs/contract.md §3)')
        // Refused, or signed wrongly (never refused: forged as far as the receiver knows), which says enough.
        const refused = await hooks.next(
          (delivery) => (delivery.refused || delivery.signatureProblem !== undefined) && isIt(delivery.payload),
          DELIVERY_MS,
          'user.updated',
        )
        expectRule(
          patch,
          refused !== undefined,
          SENT,
          `Received: no user.updated for this PATCH within ${DELIVERY_MS / 1000} s${hooks.missedNote('user.updated')}`,
        )
        const first = refused as ReceivedDelivery
        expectWellFormed(patch, first, 'user.updated')
        const attempts = new Set([first])
        for (let retry = 1; retry <= RETRIES; retry += 1) {
          const next = await hooks.next(
            (delivery) => delivery.id === first.id && !attempts.has(delivery),
            RETRY_MS,
            'retry',
          )
          const others = hooks.deliveries
            .filter((delivery) => delivery.id !== first.id && isIt(delivery.payload))
            .map((delivery) => delivery.id)
          expectRule(
            patch,
            next !== undefined,
            RETRIED,
            `The receiver answered 500 to ${attempts.size} deliveries of ${JSON.stringify(first.id)}.\nReceived: ${others.length === 0 ? 'no further attempt' : `deliveries of the same change with other webhook-ids: ${others.join(', ')}`} within ${RETRY_MS / 1000} s of the last${hooks.missedNote('retry')}\nExpected: ${RETRIES} retries at least, with webhook-id ${JSON.stringify(first.id)} (set "retryWithinSeconds" in the target if your retries come later)`,
          )
          const attempt = next as ReceivedDelivery
          attempts.add(attempt)
          const payload = expectWellFormed(patch, attempt, 'user.updated')
          expectRule(
            patch,
            payload.type === 'user.updated' && isIt(payload),
            RETRIED,
            `Received, on retry ${retry}: ${attempt.body.slice(0, 300)}\nExpected: the same event as the first delivery`,
          )
        }
      },
    )

    test(
      '[profile] the answer to a PATCH never waits for its delivery: it comes while the receiver holds the delivery unanswered, and while it refuses it',
      {
        ...IN_TURN,
        ...covers('§6.never-delays'),
        timeout: 2 * (suite.requestTimeoutMs + DELIVERY_MS + RETRY_MS) + 10_000,
      },
      async (context) => {
        const hooks = needReceiver(context)
        const user = needDisposable(context, DELETED)
        await restoreAfter(context, user)
        // How long a PATCH takes when its delivery is answered at once: the measure of "slowed down".
        const started = Date.now()
        await rename(hooks, user, `Baseline ${randomText(8)}`)
        const usualMs = Date.now() - started
        // A backend that waits for its delivery a while and then answers anyway: the answer comes long
        // after the delivery did (a correct one answers about when it hands the event over).
        const patience = Math.max(2_000, 4 * usualMs)
        for (const refusedFirst of [false, true]) {
          const name = `${refusedFirst ? 'Refused' : 'Held'} ${randomText(8)}`
          const isIt = (payload: unknown): boolean => (payload as EventPayload | undefined)?.data?.user?.name === name
          const how = refusedFirst
            ? 'refused the first delivery (500) and holds the retry unanswered'
            : 'holds the delivery unanswered'
          if (refusedFirst) hooks.refuse(isIt)
          // Held for longer than the request may take: the answer must come while the delivery waits.
          const hold = hooks.hold(isIt, suite.requestTimeoutMs + 2_000)
          // The delivery held and no answer `patience` after it: the evidence is in, the request ends there.
          const stop = new AbortController()
          let patienceTimer: NodeJS.Timeout | undefined
          void hold.firstHeld.then(() => (patienceTimer = setTimeout(() => stop.abort(), patience)))
          let patch: Exchange
          let answeredAt: number
          try {
            patch = await send({
              as: 'owner',
              method: 'PATCH',
              path: userPath(user.id),
              json: { name },
              signal: stop.signal,
            }).catch((error: unknown) => {
              const waiting = hold.held[0]
              if (!(error instanceof ContractViolation) || !waiting) throw error
              const waited = Date.now() - waiting.delivery.receivedAt
              const message = stop.signal.aborted
                ? `Received: no answer ${waited} ms after its delivery reached the receiver, which ${how} (a PATCH whose delivery is answered at once took ${usualMs} ms)\nExpected: the answer within ${patience} ms of the delivery, whatever the receiver does`
                : `Received: no answer within ${suite.requestTimeoutMs} ms; the delivery came ${waited} ms before the request gave up, and the receiver ${how}\nExpected: the answer, whatever the receiver does`
              throw suite.client.violation([{ check: 'scenario', rule: NEVER_WAITS, message }], error.exchange)
            })
            answeredAt = Date.now()
          } finally {
            clearTimeout(patienceTimer)
            hold.release()
          }
          expectStatus(patch, 200, 'An owner may rename a user (docs/contract.md §3)')
          const ended = hold.held.find((entry) => entry.endedAt !== undefined && entry.endedAt <= answeredAt)
          expectRule(
            patch,
            ended === undefined,
            NEVER_WAITS,
            `Received: the answer ${answeredAt - (ended?.endedAt ?? answeredAt)} ms after the delivery it sent ended (${ended?.endedBy === 'sender' ? 'the backend gave up waiting for it' : 'the receiver stopped holding it'}), while the receiver ${how}\nExpected: the answer while the delivery is still unanswered`,
          )
          const waited = hold.held[0] ? answeredAt - hold.held[0].delivery.receivedAt : 0
          expectRule(
            patch,
            waited <= patience,
            NEVER_WAITS,
            `Received: the answer ${waited} ms after its delivery reached the receiver, which ${how} (a PATCH whose delivery is answered at once took ${usualMs} ms)\nExpected: the answer within ${patience} ms of the delivery, whatever the receiver does`,
          )
          const awaited = refusedFirst ? 'retry' : 'user.updated'
          const arrived = await hooks.next(
            (delivery) => !delivery.refused && isIt(delivery.payload),
            DELIVERY_MS + RETRY_MS,
            awaited,
          )
          expectRule(
            patch,
            arrived !== undefined,
            SENT,
            `Received: no user.updated for this PATCH (the receiver ${how})${hooks.missedNote(awaited)}`,
          )
        }
      },
    )

    test(
      '[profile] a DELETE sends a signed user.deleted with the user as they were at the deletion, after earlier changes, and the actor, once they are gone',
      {
        ...covers('§6.deleted', '§6.deleted.data', '§6.payload', '§6.signature', '§6.visible', '§6.document'),
        ...IN_TURN,
      },
      async (context) => {
        const hooks = needReceiver(context)
        const user = needDisposable(context, DELETED)
        await readDisposable(context, user)
        const owner = await actorId('owner')
        // Changed first: the event carries the user as they were when deleted, not as they were first read.
        const renamed = await send({
          as: 'owner',
          method: 'PATCH',
          path: userPath(user.id),
          json: { name: `Deleted ${randomText(8)}`, status: 'SUSPENDED' },
        })
        expectStatus(renamed, 200, 'An owner may rename and suspend a user (docs/contract.md §3)')
        const before = userOf(renamed)
        const deletion = await send({ as: 'owner', method: 'DELETE', path: userPath(user.id) })
        expectStatus(deletion, 204, 'An owner may delete a user who is not an owner (docs/contract.md §3)')
        const delivery = await hooks.next(
          (candidate) => eventOf(candidate, 'user.deleted', user.id) !== undefined,
          DELIVERY_MS,
          'user.deleted',
        )
        expectRule(
          deletion,
          delivery !== undefined,
          SENT,
          `Received: no user.deleted for ${user.id} within ${DELIVERY_MS / 1000} s of this DELETE${hooks.missedNote('user.deleted')}`,
        )
        const payload = expectWellFormed(deletion, delivery as ReceivedDelivery, 'user.deleted')
        expectVisible(deletion, delivery as ReceivedDelivery, payload)
        const differing = differingFields(payload.data.user, before)
        expectRule(
          deletion,
          differing.length === 0,
          CONTENT,
          `Received: data.user differs from the user at the DELETE (renamed and suspended just before) in ${differing.join(', ')}\n${JSON.stringify(payload.data.user)}`,
        )
        expectActor(deletion, payload, owner, 'the owner who sent the DELETE')
      },
    )
  })

  // Last: it counts what the receiver got during every check of this file. A forged delivery (anything
  // on the machine can reach the receiver) is kept apart from the others, so that it fails this check
  // and no other.
  test(
    "[profile] every delivery the receiver got verifies with the target's secret: none was forged",
    covers('§6.signature'),
    async (context) => {
      const hooks = needReceiver(context)
      const user = needDisposable(context, UPDATED)
      await restoreAfter(context, user)
      const { exchange } = await rename(hooks, user, `Last ${randomText(8)}`)
      const shown = hooks.forged
        .slice(0, 3)
        .map(
          (delivery) =>
            `  ${JSON.stringify(delivery.id)}: ${delivery.signatureProblem}; ${delivery.body.slice(0, 200)}`,
        )
      expectRule(
        exchange,
        hooks.forgeries === 0,
        SIGNED_ONLY,
        `Received: ${hooks.forgeries} deliveries at ${hooks.url} whose signature does not verify with the target's secret (sent by another sender, or signed with another secret), first:\n${shown.join('\n')}`,
      )
    },
  )
})
