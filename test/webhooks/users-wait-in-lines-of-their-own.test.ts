import { describe, expect, test } from 'vitest'
import { DeliveryScheduler } from '../../src/webhooks/delivery-scheduler.js'
import type { DeliverySender } from '../../src/webhooks/delivery-sender.js'
import { DEFAULT_DELIVERY_SETTINGS } from '../../src/webhooks/delivery-settings.js'
import { EndpointQueue } from '../../src/webhooks/endpoint-queue.js'
import { EventLog, type LoggedEvent } from '../../src/webhooks/event-log.js'

// CONTRACT §6 (docs/mock.md, "Events"): one user's events reach an endpoint in the order of the changes, a
// user's next waiting until the one before it was delivered or given up. Each user waits in a line of their
// own (src/webhooks/endpoint-queue.ts): another user's event never waits behind it, and a queue full of one
// user's events behind the one in flight has nothing to start, whatever its length.

/** A sender whose answers the test gives, one delivery at a time, in the order it chooses. */
function heldSender() {
  const held: Array<{ body: string; answer: (status: number) => void }> = []
  const send: DeliverySender = (_url, delivery) =>
    new Promise((resolve) => held.push({ body: delivery.body, answer: resolve }))
  return { send, held }
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/** Lets the scheduler start what it may: a start a turn, each once the last has gone out. */
async function settle(): Promise<void> {
  for (let index = 0; index < 20; index++) await turn()
}

function event(userId: string, number: number): LoggedEvent {
  return {
    id: `msg_${userId}_${number}`,
    type: 'user.updated',
    organizationId: 'org_test',
    userId,
    payload: {} as LoggedEvent['payload'],
    deliveries: [],
  }
}

function queueWith(send: DeliverySender, settings = DEFAULT_DELIVERY_SETTINGS) {
  return new EndpointQueue(
    { id: 'whk_test', url: 'http://127.0.0.1:9/hooks', secret: 'whsec_test' },
    { ...settings, retryDelaysMs: [0, 0] },
    new EventLog(),
    send,
    async () => 'v1,signature',
    new DeliveryScheduler(64),
  )
}

describe("an endpoint's queue: each user in a line of their own", () => {
  test("another user's event goes while one user's many wait behind the one in flight", async () => {
    const { send, held } = heldSender()
    const queue = queueWith(send)
    for (let number = 1; number <= 900; number++) queue.enqueue(event('usr_a', number), `a${number}`)
    await settle()
    expect(held.map((delivery) => delivery.body)).toEqual(['a1'])
    expect(queue.startNext()).toBe(false)
    queue.enqueue(event('usr_b', 1), 'b1')
    await settle()
    expect(held.map((delivery) => delivery.body)).toEqual(['a1', 'b1'])
    expect(queue.size).toBe(901)
  })

  test("a user's events go one after another, in order, retries included; the queue ends empty", async () => {
    const { send, held } = heldSender()
    const queue = queueWith(send)
    for (let number = 1; number <= 3; number++) {
      queue.enqueue(event('usr_a', number), `a${number}`)
      queue.enqueue(event('usr_b', number), `b${number}`)
    }
    const answered: string[] = []
    // Each answer in turn; a2's first attempt refused, so a3 waits for its retry to be answered.
    let refusedOnce = false
    while (queue.size > 0) {
      await settle()
      const next = held.shift()
      // Nothing held: a retry is due on a timer.
      if (next === undefined) {
        await new Promise((resolve) => setTimeout(resolve, 1))
        continue
      }
      const refuse: boolean = next.body === 'a2' && !refusedOnce
      refusedOnce ||= refuse
      answered.push(refuse ? `${next.body} refused` : next.body)
      next.answer(refuse ? 500 : 204)
    }
    await queue.idle()
    expect(queue.size).toBe(0)
    const of = (user: string) => answered.filter((body) => body.startsWith(user))
    expect(of('a')).toEqual(['a1', 'a2 refused', 'a2', 'a3'])
    expect(of('b')).toEqual(['b1', 'b2', 'b3'])
  })

  test('a full queue drops what comes, and takes again once one of its deliveries ended', async () => {
    const { send, held } = heldSender()
    const queue = queueWith(send, { ...DEFAULT_DELIVERY_SETTINGS, queueLimit: 3 })
    const events = [1, 2, 3, 4].map((number) => event('usr_a', number))
    for (const [index, each] of events.entries()) queue.enqueue(each, `a${index + 1}`)
    expect(events.map((each) => each.deliveries[0]?.state)).toEqual(['pending', 'pending', 'pending', 'dropped'])
    await settle()
    held.shift()?.answer(204)
    await settle()
    const fifth = event('usr_a', 5)
    queue.enqueue(fifth, 'a5')
    expect(fifth.deliveries[0]?.state).toBe('pending')
    expect(events[0]?.deliveries[0]?.state).toBe('delivered')
    queue.close('the test ended')
    expect(queue.size).toBe(0)
    expect(fifth.deliveries[0]?.state).toBe('dropped')
  })
})
