import { afterEach, describe, expect, test } from 'vitest'
import { Webhook } from 'standardwebhooks'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'
import { loadSpec } from '../../src/spec/load-spec.js'
import { createAjv } from '../../src/spec/create-ajv.js'
import { payloadOf, startReceiver, type Received } from '../support/test-receiver.js'

// CONTRACT §6, the mock's side: real HTTP from the mock to a receiver.

interface WebhookDocument {
  webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: object }> } } }>
}

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function setUp(answer?: Parameters<typeof startReceiver>[0], settings: Record<string, unknown> = {}) {
  const receiver = await startReceiver(answer)
  cleanups.push(() => receiver.close())
  const mock = await startMock({
    users: 2,
    webhooks: { endpoints: [{ url: receiver.url }], secret: SECRET, retryDelaysMs: [50, 100, 200], ...settings },
  })
  cleanups.push(() => mock.close())
  return { receiver, mock }
}

function api(mock: RunningMock, method: string, path: string, json?: unknown, token = 'owner-token') {
  return fetch(`${mock.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  })
}

const victim = (mock: RunningMock) => mock.target.disposable[0]?.id as string

describe('deliveries', () => {
  test('a PATCH that changes a field sends one user.updated, signed with the secret, valid against the document', async () => {
    const { receiver, mock } = await setUp()
    const response = await api(mock, 'PATCH', `/api/users/${victim(mock)}`, {
      name: 'Ada Webhook',
      role: 'CLIENT_ADMIN',
    })
    expect(response.status).toBe(200)
    await receiver.until(1)
    const [delivery] = receiver.received as [Received]
    const headers = {
      'webhook-id': String(delivery.headers['webhook-id']),
      'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
      'webhook-signature': String(delivery.headers['webhook-signature']),
    }
    expect(() => new Webhook(SECRET).verify(delivery.body, headers)).not.toThrow()
    expect(() =>
      new Webhook('whsec_' + Buffer.from('another secret!!').toString('base64')).verify(delivery.body, headers),
    ).toThrow()
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(5)
    expect(delivery.headers['content-type']).toBe('application/json')
    const payload = payloadOf(delivery)
    expect(payload.type).toBe('user.updated')
    expect(payload.data.changes).toEqual(['name', 'role'])
    expect(payload.data.user).toEqual(((await response.json()) as { data: unknown }).data)
    expect(payload.data.actorId).toBe(mock.tokens.find((entry) => entry.token === 'owner-token')?.userId)
    const spec = await loadSpec()
    const schema = (spec.dereferenced as unknown as WebhookDocument).webhooks['user.updated']?.post.requestBody.content[
      'application/json'
    ]?.schema as object
    const validate = createAjv({ strict: false }).compile(schema)
    expect(validate(payload), JSON.stringify(validate.errors)).toBe(true)
  })

  test('a no-op PATCH and rejected requests send nothing; a DELETE sends user.deleted with the user as they were', async () => {
    const { receiver, mock } = await setUp()
    const id = victim(mock)
    const before = ((await (await api(mock, 'GET', `/api/users/${id}`)).json()) as { data: { name: string } }).data
    expect((await api(mock, 'PATCH', `/api/users/${id}`, { name: `  ${before.name} ` })).status).toBe(200)
    expect((await api(mock, 'PATCH', `/api/users/${id}`, { name: 'x', extra: 1 })).status).toBe(400)
    expect((await api(mock, 'PATCH', `/api/users/${id}`, { name: 'x' }, 'viewer-token')).status).toBe(403)
    expect((await api(mock, 'DELETE', `/api/users/${id}`)).status).toBe(204)
    await receiver.until(1)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(receiver.received.map((delivery) => payloadOf(delivery).type)).toEqual(['user.deleted'])
    expect(payloadOf(receiver.received[0] as Received).data.user).toEqual(before)
  })

  test("the change is visible when the event arrives, and one user's events arrive in the order of the changes", async () => {
    const seen: string[] = []
    let mockUrl = ''
    const { receiver, mock } = await setUp((delivery) => {
      const user = payloadOf(delivery).data.user
      void fetch(`${mockUrl}/api/users/${user.id}`, { headers: { authorization: 'Bearer owner-token' } })
        .then((response) => response.json() as Promise<{ data: { updatedAt: string } }>)
        .then((body) => seen.push(`${user.name}:${body.data.updatedAt >= user.updatedAt}`))
      return 204
    })
    mockUrl = mock.url
    const names = Array.from({ length: 8 }, (_, index) => `Name ${index}`)
    for (const name of names) await api(mock, 'PATCH', `/api/users/${victim(mock)}`, { name })
    await receiver.until(names.length)
    expect(receiver.received.map((delivery) => payloadOf(delivery).data.user.name)).toEqual(names)
    await mock.mock.webhooks.idle()
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(
      seen.every((entry) => entry.endsWith(':true')),
      seen.join(', '),
    ).toBe(true)
    expect(new Set(receiver.received.map((delivery) => delivery.headers['webhook-id'])).size).toBe(names.length)
  })
})

describe('retries', () => {
  test('a receiver that answers 500 twice gets the same webhook-id and body again, after growing delays', async () => {
    const { receiver, mock } = await setUp((_delivery, index) => (index < 2 ? 500 : 204))
    await api(mock, 'PATCH', `/api/users/${victim(mock)}`, { name: 'Retried' })
    await receiver.until(3)
    const ids = new Set(receiver.received.map((delivery) => delivery.headers['webhook-id']))
    expect(ids.size).toBe(1)
    expect(new Set(receiver.received.map((delivery) => delivery.body)).size).toBe(1)
    const [first, second, third] = receiver.received.map((delivery) => delivery.at) as [number, number, number]
    expect(second - first).toBeGreaterThanOrEqual(45)
    expect(third - second).toBeGreaterThanOrEqual(95)
    await mock.mock.webhooks.idle()
    const [event] = mock.mock.webhooks.events()
    expect(event?.deliveries[0]).toMatchObject({
      state: 'delivered',
      attempts: [{ status: 500 }, { status: 500 }, { status: 204 }],
    })
  })

  test("a dead receiver gets the retries of the schedule, then the delivery is logged as failed; the API's answers never wait", async () => {
    const dead = await startReceiver()
    await dead.close() // nothing listens on its port any more
    const mock = await startMock({
      users: 2,
      webhooks: { endpoints: [{ url: dead.url }], retryDelaysMs: [20, 40, 80] },
    })
    cleanups.push(() => mock.close())
    const started = Date.now()
    expect((await api(mock, 'PATCH', `/api/users/${victim(mock)}`, { name: 'Nobody listens' })).status).toBe(200)
    expect(Date.now() - started).toBeLessThan(500)
    await mock.mock.webhooks.idle()
    const delivery = mock.mock.webhooks.events()[0]?.deliveries[0]
    expect(delivery?.state).toBe('failed')
    expect(delivery?.attempts).toHaveLength(4)
    expect(delivery?.attempts.every((attempt) => attempt.error === 'ECONNREFUSED')).toBe(true)
  })

  test('a receiver that hangs costs an attempt timeout and a bounded queue, never the API its speed', async () => {
    const { mock } = await setUp(() => 'hang', {
      attemptTimeoutMs: 200,
      retryDelaysMs: [10, 10, 10],
      concurrency: 2,
      queueLimit: 5,
    })
    const started = Date.now()
    for (let index = 0; index < 12; index++) {
      expect(
        (await api(mock, 'PATCH', `/api/users/${mock.target.disposable[index % 4]?.id}`, { name: `Hang ${index}` }))
          .status,
      ).toBe(200)
    }
    expect(Date.now() - started).toBeLessThan(2_000)
    await new Promise((resolve) => setTimeout(resolve, 50))
    const deliveries = mock.mock.webhooks.events().flatMap((event) => event.deliveries)
    expect(deliveries).toHaveLength(12)
    const dropped = deliveries.filter((delivery) => delivery.state === 'dropped')
    expect(dropped).toHaveLength(7)
    expect(dropped[0]?.note).toMatch(/queue was full \(5 deliveries waiting\)/)
    await mock.mock.webhooks.idle()
    const failed = mock.mock.webhooks
      .events()
      .flatMap((event) => event.deliveries)
      .filter((delivery) => delivery.state === 'failed')
    expect(failed).toHaveLength(5)
    expect(failed[0]?.attempts[0]?.error).toBe('no answer within 200 ms')
  })
})

describe('in code', () => {
  test('startMock users get every event in a callback, and subscribe endpoints of their own', async () => {
    const events: string[] = []
    const mock = await startMock({
      users: 2,
      webhooks: { onEvent: (event) => events.push(`${event.type} ${event.userId}`) },
    })
    cleanups.push(() => mock.close())
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    mock.mock.webhooks.subscribe({ url: receiver.url })
    await api(mock, 'DELETE', `/api/users/${victim(mock)}`)
    await receiver.until(1)
    expect(events).toEqual([`user.deleted ${victim(mock)}`])
  })
})
