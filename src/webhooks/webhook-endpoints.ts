import { AppError } from '../errors.js'
import { checkWebhookSecret } from './webhook-secret.js'

/** An endpoint subscribed to the mock's events (CONTRACT §6: subscribing is the mock's own business). */
export interface WebhookEndpoint {
  id: string
  url: string
  /** The `whsec_` secret its deliveries are signed with. */
  secret: string
  /** Only this organization's events; every organization's when absent. */
  organizationId?: string
}

export interface EndpointRequest {
  url: string
  secret?: string
  organizationId?: string
}

/** Enough for any development set-up; a cap so that subscriptions cannot grow without bound. */
export const MAX_ENDPOINTS = 100

/**
 * A new endpoint: its id, its URL checked, its secret (the mock's unless it brings its own).
 *
 * @example
 * createEndpoint({ url: 'http://127.0.0.1:3000/hooks' }, 'whsec_…')
 */
export function createEndpoint(request: EndpointRequest, defaultSecret: string): WebhookEndpoint {
  return {
    id: `whk_${randomHex(8)}`,
    url: checkEndpointUrl(request.url),
    secret: request.secret === undefined ? defaultSecret : checkWebhookSecret(request.secret),
    ...(request.organizationId === undefined ? {} : { organizationId: request.organizationId }),
  }
}

/** Whether an event of this organization goes to the endpoint. */
export function receives(endpoint: WebhookEndpoint, organizationId: string): boolean {
  return endpoint.organizationId === undefined || endpoint.organizationId === organizationId
}

/** http(s) only: a delivery is an HTTP POST. */
export function checkEndpointUrl(raw: string): string {
  let url: URL | undefined
  try {
    url = new URL(raw)
  } catch {
    url = undefined
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new AppError(
      'VALIDATION_FAILED',
      `A webhook endpoint is an http or https URL, such as http://127.0.0.1:3000/webhooks (got ${JSON.stringify(raw)}).`,
      { errors: [{ in: 'body', path: '/url', message: 'must be an http or https URL' }] },
    )
  }
  return url.href
}

export function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((byte) => byte.toString(16).padStart(2, '0')).join('')
}
