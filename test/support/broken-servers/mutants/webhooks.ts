import { createHmac } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { generateWebhookSecret } from '../../../../src/webhooks/webhook-secret.js'
import {
  OWNER,
  findAnywhere,
  idOf,
  parseJsonObject,
  pathOf,
  wrapEngine,
  wrapEngineBodies,
  wrapStore,
} from '../break-helpers.js'
import type { Mutant } from './mutant.js'

/** Broken implementations of §6 events: what is sent, when, to whom, signed how, retried how often. */
export const WEBHOOKS_MUTANTS: Mutant[] = [
  {
    name: 'signs-webhooks-with-another-secret',
    breaks: "§6 deliveries are signed with the endpoint's secret",
    caughtBy: /signed the Standard Webhooks way/i,
    apply({ mock }) {
      const subscribe = mock.webhooks.subscribe
      mock.webhooks.subscribe = (request) => subscribe({ ...request, secret: generateWebhookSecret() })
    },
  },
  {
    name: 'signs-webhooks-with-a-timestamp-in-milliseconds',
    breaks: '§6 webhook-timestamp is Unix seconds (signed as sent: the signature is right, the time is not)',
    caughtBy: /signed the Standard Webhooks way/i,
    apply({ app, mock }) {
      // Every endpoint is subscribed through a relay that sends on each delivery with the time in
      // milliseconds, signed with the endpoint's own secret over what it sends.
      const relay = createServer((request, response) => {
        const chunks: Buffer[] = []
        request.on('data', (chunk: Buffer) => chunks.push(chunk))
        request.on('end', () => {
          const target = new URL(request.url ?? '/', 'http://relay').searchParams
          const body = Buffer.concat(chunks).toString('utf8')
          const id = String(request.headers['webhook-id'])
          const milliseconds = String(Number(request.headers['webhook-timestamp']) * 1000)
          const key = Buffer.from((target.get('secret') ?? '').replace(/^whsec_/, ''), 'base64')
          const signature = createHmac('sha256', key).update(`${id}.${milliseconds}.${body}`).digest('base64')
          fetch(target.get('to') ?? '', {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'webhook-id': id,
              'webhook-timestamp': milliseconds,
              'webhook-signature': `v1,${signature}`,
            },
            body,
          }).then(
            (answer) => response.writeHead(answer.status).end(),
            () => response.writeHead(502).end(),
          )
        })
      })
      relay.listen(0, '127.0.0.1')
      app.addHook('onClose', async () => {
        relay.closeAllConnections()
        await new Promise((resolve) => relay.close(resolve))
      })
      const subscribe = mock.webhooks.subscribe
      mock.webhooks.subscribe = (request) => {
        const { port } = relay.address() as AddressInfo
        const query = new URLSearchParams({ to: request.url, secret: request.secret ?? '' })
        return subscribe({ ...request, url: `http://127.0.0.1:${port}/?${query}` })
      }
    },
  },
  {
    name: 'sends-no-user-deleted-event',
    breaks: '§6 a DELETE that answered 204 sends user.deleted',
    caughtBy: /sends user\.deleted/i,
    apply({ mock }) {
      const publish = mock.webhooks.publish
      mock.webhooks.publish = (event) => (event.type === 'user.deleted' ? undefined : publish(event))
    },
  },
  {
    name: 'sends-an-event-for-a-no-op-patch',
    breaks: '§6 a no-op PATCH sends no event',
    caughtBy: /changes nothing and any refused request send no event/i,
    apply({ state, mock }) {
      wrapStore(state, 'updateUser', (original) => (caller, id, patch) => {
        const before = findAnywhere(state.store, id)?.updatedAt
        const user = original(caller, id, patch)
        if (user.updatedAt === before) {
          const timestamp = new Date().toISOString()
          mock.webhooks.publish({
            type: 'user.updated',
            timestamp,
            data: { user: { ...user }, changes: ['name'], actorId: caller.id },
          })
        }
        return user
      })
    },
  },
  {
    name: 'sends-an-event-for-a-refused-request',
    breaks: '§6 a refused request (here a 415) sends no event',
    caughtBy: /changes nothing and any refused request send no event/i,
    apply(internals) {
      const { mock, state } = internals
      wrapEngine(internals, async (request, next) => {
        const response = await next(request)
        const id = idOf(request)
        const user = request.method === 'PATCH' && response.status === 415 ? findAnywhere(state.store, id) : undefined
        if (user) {
          const timestamp = new Date().toISOString()
          mock.webhooks.publish({
            type: 'user.updated',
            timestamp,
            data: { user: { ...user }, changes: ['name'], actorId: user.id },
          })
        }
        return response
      })
    },
  },
  {
    name: 'sends-events-for-renames-only',
    breaks: '§6 a PATCH that changes the status or the role sends user.updated too',
    caughtBy: /"changes" names exactly the fields|sends user\.updated/i,
    apply({ mock }) {
      const publish = mock.webhooks.publish
      mock.webhooks.publish = (event) =>
        event.type === 'user.updated' && !event.data.changes.includes('name') ? undefined : publish(event)
    },
  },
  {
    name: 'names-every-field-sent-in-changes',
    breaks: '§6 changes names the fields whose value changed, not every field the PATCH sent',
    caughtBy: /"changes" names exactly the fields/i,
    apply({ mock }) {
      const publish = mock.webhooks.publish
      let sent: string[] = []
      wrapEngineBodies(mock, (patch) => (sent = Object.keys(patch)))
      mock.webhooks.publish = (event) =>
        publish(event.type === 'user.updated' ? { ...event, data: { ...event.data, changes: sent as never } } : event)
    },
  },
  {
    name: 'sends-user-deleted-with-the-user-as-first-seen',
    breaks: '§6 user.deleted carries the user as they were at the deletion',
    caughtBy: /differs from the user at the DELETE/i,
    apply({ mock, state }) {
      // A cache of users filled when they are added and never updated.
      const firstSeen = new Map(state.store.tokens().map(({ user }) => [user.id, { ...user }]))
      wrapStore(state, 'addUser', (original) => (user) => {
        const added = original(user)
        firstSeen.set(added.id, { ...added })
        return added
      })
      const publish = mock.webhooks.publish
      mock.webhooks.publish = (event) => {
        const cached = event.type === 'user.deleted' ? firstSeen.get(event.data.user.id) : undefined
        publish(cached && event.type === 'user.deleted' ? { ...event, data: { ...event.data, user: cached } } : event)
      }
    },
  },
  {
    name: 'names-the-owner-as-every-actor',
    breaks: '§6 actorId is the user who made the change',
    caughtBy: /"actorId"/i,
    apply({ mock, state }) {
      const publish = mock.webhooks.publish
      mock.webhooks.publish = (event) => {
        const owner = state.store
          .tokens()
          .find(({ user }) => user.role === OWNER && user.organizationId === event.data.user.organizationId)
        const actorId = owner?.user.id ?? event.data.actorId
        publish(
          event.type === 'user.updated'
            ? { ...event, data: { ...event.data, actorId } }
            : { ...event, data: { ...event.data, actorId } },
        )
      }
    },
  },
  {
    name: 'sends-the-event-before-the-change-is-visible',
    breaks: '§6 an event is sent after the change is visible',
    caughtBy: /after the change is visible/i,
    apply(internals) {
      const { mock, state } = internals
      const publish = mock.webhooks.publish
      let swallowNext = false
      mock.webhooks.publish = (event) => (swallowNext ? void (swallowNext = false) : publish(event))
      // A rename's event goes out first, built from the request; the rename follows once it was delivered (at
      // most a second later): a fixed 60 ms was outlasted by a busy machine's delivery, a fixed second by the
      // suite's many renames.
      wrapEngine(internals, async (request, next) => {
        const id = pathOf(request).split('/')[3]
        const user = request.method === 'PATCH' && id ? findAnywhere(state.store, id) : undefined
        const patch = user ? parseJsonObject(request.body) : undefined
        if (!user || !patch || Object.keys(patch).join() !== 'name') return next(request)
        const token = String(request.headers['authorization'] ?? '').replace(/^Bearer /, '')
        const actorId = state.store.tokens().find((entry) => entry.token === token)?.user.id ?? user.id
        const timestamp = new Date().toISOString()
        publish({
          type: 'user.updated',
          timestamp,
          data: { user: { ...user, ...patch, updatedAt: timestamp }, changes: ['name'], actorId },
        })
        await Promise.race([mock.webhooks.idle(), new Promise((resolve) => setTimeout(resolve, 1_000))])
        swallowNext = true
        try {
          return await next(request)
        } finally {
          swallowNext = false
        }
      })
    },
  },
  {
    name: 'sends-events-out-of-order',
    breaks: "§6 one user's events go out in the order of the changes",
    caughtBy: /in the order of the changes/i,
    apply({ mock }) {
      const publish = mock.webhooks.publish
      let count = 0
      // Every other event waits 150 ms before it is queued: the next one overtakes it.
      mock.webhooks.publish = (event) => {
        count += 1
        if (count % 2 === 0) publish(event)
        else setTimeout(() => publish(event), 150)
      }
    },
  },
  {
    name: 'sends-every-organizations-events-to-every-endpoint',
    breaks: "§6 an event goes to the endpoints subscribed for the user's organization",
    caughtBy: /endpoints subscribed for the user's organization only/i,
    apply({ mock }) {
      const subscribe = mock.webhooks.subscribe
      mock.webhooks.subscribe = ({ organizationId: _all, ...request }) => subscribe(request)
    },
  },
  {
    name: 'answers-after-delivering',
    breaks: "§6 delivering never slows down the API's answer",
    caughtBy: /Delivering never slows down or alters the API's own answer/i,
    apply(internals) {
      const { mock } = internals
      wrapEngine(internals, async (request, next) => {
        const response = await next(request)
        // The answer waits for the change's first delivery attempts, 3 s at most: a synchronous delivery
        // whose client gives up after 3 s and leaves the connection open.
        const event = request.method === 'PATCH' && response.status === 200 ? mock.webhooks.events().at(-1) : undefined
        const answered = (delivery: { attempts: Array<{ status?: number; error?: string }> }): boolean =>
          delivery.attempts.some((attempt) => attempt.status !== undefined || attempt.error !== undefined)
        const waits = event !== undefined && mock.webhooks.endpoints().length > 0
        for (let waited = 0; waits && waited < 3_000; waited += 20) {
          if (event.deliveries.length > 0 && event.deliveries.every(answered)) break
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
        return response
      })
    },
  },
  {
    name: 'answers-only-once-its-delivery-is-answered',
    breaks: "§6 delivering never slows down the API's answer (the answer waits for the delivery, however long)",
    caughtBy: /Delivering never slows down or alters the API's own answer/i,
    apply(internals) {
      const { mock } = internals
      wrapEngine(internals, async (request, next) => {
        const before = mock.webhooks.events().at(-1)
        const response = await next(request)
        // A synchronous delivery without a limit of its own: the answer waits until each delivery of the
        // events this request made is over (delivered, or its last retry failed), however long it takes.
        const recent = mock.webhooks.events()
        const own = recent.slice(before === undefined ? 0 : recent.indexOf(before) + 1)
        const queued = Date.now() + 200
        const over = (): boolean =>
          own.every(
            (event) =>
              (event.deliveries.length > 0 || Date.now() > queued) &&
              event.deliveries.every((delivery) => delivery.state !== 'pending'),
          )
        while (!over()) await new Promise((resolve) => setTimeout(resolve, 20))
        return response
      })
    },
  },
  {
    name: 'never-retries-a-webhook',
    breaks: '§6 a delivery without a 2xx answer is retried',
    caughtBy: /is retried, at least 3 times, with the same webhook-id/i,
    apply() {},
    mockOptions: { webhooks: { retryDelaysMs: [] } },
  },
  {
    name: 'retries-a-webhook-only-twice',
    breaks: '§6 a delivery without a 2xx answer is retried at least 3 times',
    caughtBy: /is retried, at least 3 times, with the same webhook-id/i,
    apply() {},
    mockOptions: { webhooks: { retryDelaysMs: [100, 200] } },
  },
]
