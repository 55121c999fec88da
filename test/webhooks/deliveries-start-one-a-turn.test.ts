import { afterEach, describe, expect, test } from 'vitest'
import { createUsersApiMock } from '../../src/mock-instance/create-users-api-mock.js'
import { createWebhookHosts } from '../../src/server/webhook-hosts.js'
import type { DeliverySender } from '../../src/webhooks/delivery-sender.js'
import { MAX_ENDPOINTS } from '../../src/webhooks/webhook-endpoints.js'
import { startReceiver } from '../support/test-receiver.js'

// docs/mock.md, "Events": delivery never delays the API's answers. A delivery is an HTTP request the mock
// makes on the event loop that answers the API, so what bounds the API's wait behind deliveries is how
// many start between two turns of the loop (an API request that came meanwhile is read on the next), and
// how many are in flight (their answers are read in the same turn as it). Both are counted here, by turns
// of the event loop, never by the clock: with 100 endpoints each answer started the endpoint's next
// delivery at once, and a PATCH waited behind hundreds (npm run bench:webhooks; BENCHMARKS.md).

const cleanups: Array<() => Promise<unknown> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** Turns of the event loop, counted by a setImmediate that queues itself: one a turn, in its check phase. */
function countTurns(): { readonly now: number; stop(): void } {
  let turns = 0
  let running = true
  const tick = (): void => {
    turns += 1
    if (running) setImmediate(tick)
  }
  setImmediate(tick)
  return {
    get now() {
      return turns
    },
    stop: () => void (running = false),
  }
}

/** Wraps a sender: the deliveries started in each turn, the most in flight at once, each delivery's URL and body. */
function watchSends(send: DeliverySender, turns: { readonly now: number }) {
  const perTurn = new Map<number, number>()
  const sent: Array<{ url: string; body: string }> = []
  let inFlight = 0
  let mostInFlight = 0
  const watched: DeliverySender = async (url, delivery) => {
    perTurn.set(turns.now, (perTurn.get(turns.now) ?? 0) + 1)
    sent.push({ url, body: delivery.body })
    inFlight += 1
    mostInFlight = Math.max(mostInFlight, inFlight)
    try {
      return await send(url, delivery)
    } finally {
      inFlight -= 1
    }
  }
  return {
    send: watched,
    sent,
    mostInOneTurn: () => Math.max(0, ...perTurn.values()),
    mostInFlight: () => mostInFlight,
  }
}

/** Answers every delivery with 204 in the next timers phase: all that are in flight at once, as a burst. */
const burstSender: DeliverySender = () => new Promise((resolve) => setTimeout(() => resolve(204), 0))

/** The server's sender (node:http, keep-alive) to a receiver that answers 204 at once. */
async function realSender(): Promise<{ send: DeliverySender; url: string }> {
  const receiver = await startReceiver()
  const hosts = createWebhookHosts()
  cleanups.push(
    () => receiver.close(),
    () => hosts.close(),
  )
  return { send: hosts.send, url: receiver.url }
}

describe.each([
  ['answered in bursts', async () => ({ send: burstSender, url: 'http://127.0.0.1:9/hooks' })],
  ['sent over HTTP to a receiver', realSender],
] as const)(`${MAX_ENDPOINTS} endpoints, deliveries %s`, (_name, makeSender) => {
  test('start one a turn of the event loop, 64 in flight at most, each after its PATCH was answered, every one in order', async () => {
    const turns = countTurns()
    cleanups.push(() => turns.stop())
    const sender = await makeSender()
    const watch = watchSends(sender.send, turns)
    const mock = await createUsersApiMock({
      webhooks: {
        endpoints: Array.from({ length: MAX_ENDPOINTS }, (_, index) => ({ url: `${sender.url}/${index}` })),
        send: watch.send,
      },
    })
    cleanups.push(() => mock.webhooks.close())
    const users = mock.createTarget('http://127.0.0.1').disposable.slice(0, 4)
    const renames = 5
    for (let index = 0; index < renames; index += 1) {
      for (const user of users) {
        const before = watch.sent.length
        const answer = await mock.handle({
          method: 'PATCH',
          url: `/api/users/${user.id}`,
          headers: { authorization: 'Bearer owner-token', 'content-type': 'application/json' },
          body: new TextEncoder().encode(JSON.stringify({ name: `Renamed ${index}` })),
        })
        expect(answer.status).toBe(200)
        // The answer is ready, and no delivery started meanwhile: not one of this event, nor of earlier ones.
        expect(watch.sent.length).toBe(before)
      }
    }
    await mock.webhooks.idle()
    expect(watch.sent).toHaveLength(renames * users.length * MAX_ENDPOINTS)
    expect(watch.mostInOneTurn()).toBe(1)
    expect(watch.mostInFlight()).toBeLessThanOrEqual(64)
    // One user's events reach each endpoint in the order of the changes.
    const names = new Map<string, string[]>()
    for (const { url, body } of watch.sent) {
      const user = (JSON.parse(body) as { data: { user: { id: string; name: string } } }).data.user
      const key = `${url} ${user.id}`
      names.set(key, [...(names.get(key) ?? []), user.name])
    }
    expect(names.size).toBe(users.length * MAX_ENDPOINTS)
    const inOrder = Array.from({ length: renames }, (_, index) => `Renamed ${index}`)
    for (const [key, seen] of names) expect(seen, key).toEqual(inOrder)
  }, 60_000)
})

describe('receivers that hang', () => {
  test('hold up the others for a second at most: past it, a delivery in flight gives its place back', async () => {
    const hanging = 16
    const ended: string[] = []
    const delivered: string[] = []
    // Every attempt to a hanging endpoint waits for its timeout (30 s), which none reaches in this test.
    const send: DeliverySender = (url, { signal }) =>
      url.includes('/hang/')
        ? new Promise((_resolve, reject) =>
            signal.addEventListener('abort', () => {
              ended.push(url)
              reject(signal.reason as Error)
            }),
          )
        : Promise.resolve(204).finally(() => delivered.push(url))
    const mock = await createUsersApiMock({
      webhooks: {
        endpoints: [
          // 16 endpoints, 4 users' events each in flight at once: the 64 places, before the last endpoint's turn.
          ...Array.from({ length: hanging }, (_, index) => ({ url: `http://127.0.0.1:9/hang/${index}` })),
          { url: 'http://127.0.0.1:9/answers' },
        ],
        attemptTimeoutMs: 30_000,
        send,
      },
    })
    cleanups.push(() => mock.webhooks.close())
    for (const user of mock.createTarget('http://127.0.0.1').disposable.slice(0, 4)) {
      const answer = await mock.handle({
        method: 'PATCH',
        url: `/api/users/${user.id}`,
        headers: { authorization: 'Bearer owner-token', 'content-type': 'application/json' },
        body: new TextEncoder().encode(JSON.stringify({ name: 'Held up' })),
      })
      expect(answer.status).toBe(200)
    }
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (delivered.length < 4 && ended.length === 0) return
        clearInterval(check)
        resolve()
      }, 50)
    })
    // The answering endpoint got its 4 events while every hanging attempt still waited.
    expect(delivered).toHaveLength(4)
    expect(ended).toEqual([])
  }, 60_000)
})
