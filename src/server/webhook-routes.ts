import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify'
import { AppError } from '../errors.js'
import type { UsersApiMock } from '../mock-instance/create-users-api-mock.js'
import type { EventLogUpdate } from '../webhooks/event-log.js'
import { checkEndpointUrl, type EndpointRequest } from '../webhooks/webhook-endpoints.js'
import type { ConnectionGuard } from '../http/connection-guard.js'
import type { WebhookHosts } from './webhook-hosts.js'
import { EventStreams, sseMessage } from '../http/event-stream.js'
import { LIVE_PAGE_CSP } from '../http/live-page.js'
import { EVENTS_PAGE_HTML, EVENTS_PAGE_SCRIPT } from './events-page.js'

export interface WebhookRouteOptions {
  mock: UsersApiMock
  /** The control routes' guards. */
  onRequest: onRequestHookHandler[]
  /** Where event streams are counted. */
  connections: ConnectionGuard
  /** Where endpoints may be. */
  webhookHosts: WebhookHosts
}

/**
 * The mock's webhook control routes (docs/mock.md, "Events"): subscribe, list and remove endpoints, and
 * see the recent events with every delivery attempt, as JSON or as a live Server-Sent Events stream.
 */
export function registerWebhookRoutes(
  app: FastifyInstance,
  { mock, onRequest, connections, webhookHosts }: WebhookRouteOptions,
): void {
  const { webhooks } = mock
  app.get('/__mock/webhooks', { onRequest }, async () => ({ data: webhooks.endpoints() }))

  app.post('/__mock/webhooks', { onRequest }, async (request, reply) => {
    const wanted = readEndpointRequest(request.body, mock)
    await webhookHosts.assertAllowed(checkEndpointUrl(wanted.url))
    return reply.code(201).send(webhooks.subscribe(wanted))
  })

  app.delete('/__mock/webhooks/:id', { onRequest }, async (request, reply) => {
    const { id } = request.params as { id: string }
    if (!webhooks.unsubscribe(id))
      throw new AppError('NOT_FOUND', `No webhook endpoint ${id}; GET /__mock/webhooks lists them.`)
    return reply.code(204).send()
  })

  app.delete('/__mock/webhooks', { onRequest }, async (request) => {
    const { organizationId } = request.query as { organizationId?: string }
    return { removed: webhooks.unsubscribeAll(organizationId) }
  })

  const streams = new EventStreams()
  const messages = createMessages()
  app.addHook('preClose', async () => streams.endAll())
  app.addHook('onClose', async () => {
    webhooks.close()
    webhookHosts.close()
  })

  app.get('/__mock/events', { onRequest }, async (request, reply) => {
    if (wantsEventStream(request)) {
      connections.holdStream(request.raw)
      streamEvents(reply, { mock, streams, messages })
      return reply
    }
    // A browser asks for HTML first: it gets a live page; curl and code get JSON.
    if (/^\s*text\/html\b/i.test(request.headers.accept ?? '')) {
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', LIVE_PAGE_CSP)
        .send(EVENTS_PAGE_HTML)
    }
    return { data: webhooks.events() }
  })

  app.get('/__mock/events-page.js', { onRequest }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(EVENTS_PAGE_SCRIPT),
  )
}

function wantsEventStream(request: FastifyRequest): boolean {
  return /\btext\/event-stream\b/i.test(request.headers.accept ?? '')
}

/** The recent events, then every change as it happens, until the client goes or the server closes. */
function streamEvents(
  reply: FastifyReply,
  {
    mock,
    streams,
    messages,
  }: { mock: UsersApiMock; streams: EventStreams; messages: (update: EventLogUpdate) => string },
): void {
  reply.hijack()
  const stream = streams.open(reply.raw, {
    // Headers set by hooks so far (CORS) are kept: the reply is written by hand from here.
    headers: reply.getHeaders() as Record<string, string>,
    replay: mock.webhooks
      .events()
      .map((event) => message({ kind: 'event', event }))
      .join(''),
  })
  stream.onClose(mock.webhooks.watch((update) => stream.write(messages(update))))
}

/**
 * SSE messages, written once an update whatever the number of streams (a cache, gone with the update): they all queue the same string,
 * and a stream that reads slowly holds no copy of its own.
 */
function createMessages(): (update: EventLogUpdate) => string {
  const written = new WeakMap<EventLogUpdate, string>()
  return (update) => {
    const known = written.get(update)
    if (known !== undefined) return known
    const text = message(update)
    written.set(update, text)
    return text
  }
}

/** One SSE message: `event` (a new event), `delivery` (an attempt or its outcome), `reset`. */
function message(update: EventLogUpdate): string {
  if (update.kind === 'cleared') return sseMessage('reset', {})
  if (update.kind === 'event') return sseMessage('event', update.event, update.event.id)
  return sseMessage('delivery', { eventId: update.eventId, ...update.delivery })
}

function readEndpointRequest(body: unknown, mock: UsersApiMock): EndpointRequest {
  const fields = (body ?? {}) as Record<string, unknown>
  const issues: string[] = []
  if (typeof body !== 'object' || body === null || Array.isArray(body)) issues.push('the body must be a JSON object')
  if (typeof fields['url'] !== 'string') issues.push('url (an http or https URL) is required')
  for (const key of ['secret', 'organizationId']) {
    if (fields[key] !== undefined && typeof fields[key] !== 'string') issues.push(`${key} must be a string`)
  }
  const unknown = Object.keys(fields).filter((key) => !['url', 'secret', 'organizationId'].includes(key))
  // A few named, the rest counted: a body of a thousand keys must not be answered with all of them.
  const named = unknown.slice(0, 5).map((key) => JSON.stringify(key.slice(0, 40)))
  if (unknown.length > 0)
    issues.push(`unknown key(s): ${named.join(', ')}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ''}`)
  const organizationId = fields['organizationId'] as string | undefined
  if (
    organizationId !== undefined &&
    !mock.state.store.organizations().some((organization) => organization.id === organizationId)
  ) {
    issues.push(`there is no organization ${organizationId}`)
  }
  if (issues.length > 0) {
    throw new AppError(
      'VALIDATION_FAILED',
      `Send {"url": "http://…", "secret"?: "whsec_…", "organizationId"?: "org_…"}: ${issues.join('; ')}.`,
    )
  }
  return {
    url: fields['url'] as string,
    ...(fields['secret'] === undefined ? {} : { secret: fields['secret'] as string }),
    ...(organizationId === undefined ? {} : { organizationId }),
  }
}
