import { afterEach, describe, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'
import type { LoggedEvent } from '../../src/webhooks/event-log.js'
import { startReceiver } from '../support/test-receiver.js'

// The mock's own webhook routes (docs/mock.md, "Events"): not the users API (CONTRACT §7).

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function mockWithReceiver() {
  const mock = await startMock({ users: 2, webhooks: { retryDelaysMs: [20, 40, 80] } })
  cleanups.push(() => mock.close())
  const receiver = await startReceiver()
  cleanups.push(() => receiver.close())
  return { mock, receiver }
}

function control(mock: RunningMock, method: string, path: string, json?: unknown) {
  return fetch(`${mock.url}${path}`, {
    method,
    ...(json === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) }),
  })
}

function rename(mock: RunningMock, id: string, name: string, token = 'owner-token') {
  return fetch(`${mock.url}/api/users/${id}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  })
}

describe('/__mock/webhooks', () => {
  test('subscribes an endpoint (201, with its secret), lists it and removes it (204, then 404)', async () => {
    const { mock, receiver } = await mockWithReceiver()
    const created = await control(mock, 'POST', '/__mock/webhooks', { url: receiver.url })
    expect(created.status).toBe(201)
    const endpoint = (await created.json()) as { id: string; url: string; secret: string }
    expect(endpoint.secret).toBe(mock.mock.webhooks.secret)
    expect(((await (await control(mock, 'GET', '/__mock/webhooks')).json()) as { data: unknown[] }).data).toEqual([
      endpoint,
    ])
    expect((await control(mock, 'DELETE', `/__mock/webhooks/${endpoint.id}`)).status).toBe(204)
    expect((await control(mock, 'DELETE', `/__mock/webhooks/${endpoint.id}`)).status).toBe(404)
  })

  test.each([
    [{ url: 'ftp://example.org/' }, /http or https URL/],
    [{ url: 'http://127.0.0.1:1/', secret: 'not-a-secret' }, /whsec_/],
    [{ url: 'http://127.0.0.1:1/', organizationId: 'org_nope' }, /no organization org_nope/],
    [{ url: 'http://127.0.0.1:1/', colour: 'red' }, /unknown key/],
    [[], /JSON object/],
  ])('refuses %j with a 400 that says what to send', async (body, message) => {
    const { mock } = await mockWithReceiver()
    const response = await control(mock, 'POST', '/__mock/webhooks', body)
    expect(response.status).toBe(400)
    expect(((await response.json()) as { detail: string }).detail).toMatch(message)
  })

  test("an endpoint of one organization gets that organization's events only", async () => {
    const { mock, receiver } = await mockWithReceiver()
    const other = mock.tokens.find(
      (entry) => entry.organizationId !== mock.tokens[0]?.organizationId && entry.role === 'CLIENT_OWNER',
    )
    expect(other).toBeDefined()
    await control(mock, 'POST', '/__mock/webhooks', { url: receiver.url, organizationId: other?.organizationId })
    expect((await rename(mock, mock.target.disposable[0]?.id as string, 'Not for them')).status).toBe(200)
    const victim = mock.tokens.find(
      (entry) => entry.organizationId === other?.organizationId && entry.role !== 'CLIENT_OWNER',
    )
    expect((await rename(mock, victim?.userId as string, 'For them', other?.token)).status).toBe(200)
    await receiver.until(1)
    await mock.mock.webhooks.idle()
    expect(receiver.received.map((delivery) => JSON.parse(delivery.body).data.user.name)).toEqual(['For them'])
  })
})

describe('/__mock/events', () => {
  test('lists the recent events with every delivery attempt; reset clears them', async () => {
    const { mock, receiver } = await mockWithReceiver()
    await control(mock, 'POST', '/__mock/webhooks', { url: receiver.url })
    await rename(mock, mock.target.disposable[0]?.id as string, 'Logged')
    await mock.mock.webhooks.idle()
    const { data } = (await (await control(mock, 'GET', '/__mock/events')).json()) as { data: LoggedEvent[] }
    expect(data).toHaveLength(1)
    expect(data[0]).toMatchObject({ type: 'user.updated', payload: { data: { changes: ['name'] } } })
    expect(data[0]?.deliveries[0]).toMatchObject({ url: receiver.url, state: 'delivered', attempts: [{ status: 204 }] })
    expect(typeof data[0]?.deliveries[0]?.attempts[0]?.durationMs).toBe('number')
    await control(mock, 'POST', '/__mock/reset')
    expect(((await (await control(mock, 'GET', '/__mock/events')).json()) as { data: unknown[] }).data).toEqual([])
  })

  test('streams events, deliveries and resets as Server-Sent Events', async () => {
    const { mock, receiver } = await mockWithReceiver()
    await control(mock, 'POST', '/__mock/webhooks', { url: receiver.url })
    const controller = new AbortController()
    const stream = await fetch(`${mock.url}/__mock/events`, {
      headers: { accept: 'text/event-stream' },
      signal: controller.signal,
    })
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader()
    let text = ''
    const readUntil = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read()
        if (done) throw new Error(`the stream ended; it held:\n${text}`)
        text += new TextDecoder().decode(value)
      }
    }
    await rename(mock, mock.target.disposable[0]?.id as string, 'Streamed')
    await readUntil(/event: delivery\ndata: [^\n]*"state":"delivered"/)
    expect(text).toMatch(/event: event\nid: msg_[0-9a-f]+\ndata: \{[^\n]*"Streamed"/)
    await control(mock, 'POST', '/__mock/reset')
    await readUntil(/event: reset/)
    controller.abort()
  })

  test('an open stream does not keep the mock from closing', async () => {
    const mock = await startMock({ users: 1 })
    const stream = await fetch(`${mock.url}/__mock/events`, { headers: { accept: 'text/event-stream' } })
    expect(stream.status).toBe(200)
    const started = Date.now()
    await mock.close()
    expect(Date.now() - started).toBeLessThan(2_000)
  })
})

describe('/__mock/events in a browser', () => {
  test('a browser (Accept: text/html first) gets a live page whose only script is the mock’s own', async () => {
    const mock = await startMock({ users: 1 })
    cleanups.push(() => mock.close())
    const page = await fetch(`${mock.url}/__mock/events`, {
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    })
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(await page.text()).toContain('<script src="/__mock/events-page.js"></script>')
    const script = await fetch(`${mock.url}/__mock/events-page.js`)
    const text = await script.text()
    expect(text).toContain('new EventSource(url)')
    expect(text).toContain("follow('/__mock/events',")
    expect((await fetch(`${mock.url}/__mock/events`)).headers.get('content-type')).toMatch(/^application\/json/)
  })
})

describe('bounds', () => {
  test('a mock takes 100 webhook endpoints; the 101st is a 400 saying to remove one', async () => {
    const { mock } = await mockWithReceiver()
    for (let index = 0; index < 100; index++) mock.mock.webhooks.subscribe({ url: `http://127.0.0.1:1/${index}` })
    const refused = await control(mock, 'POST', '/__mock/webhooks', { url: 'http://127.0.0.1:1/one-more' })
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/at most 100 webhook endpoints/)
    expect(mock.mock.webhooks.unsubscribeAll()).toBe(100)
    expect((await control(mock, 'POST', '/__mock/webhooks', { url: 'http://127.0.0.1:1/now' })).status).toBe(201)
  })
})
