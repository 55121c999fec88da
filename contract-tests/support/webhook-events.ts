import { ResponseSchemas } from '../../src/contract/client/response-schemas.js'
import type { Exchange } from '../../src/contract/client/exchange.js'
import type { OpenAPIV3_1 } from 'openapi-types'
import type { ApiUser } from './api-user.js'
import { expectRule, suite } from './suite.js'
import type { ReceivedDelivery } from './webhook-receiver.js'

/** A payload of docs/contract.md §6, as far as the checks read it. */
export interface EventPayload {
  type: string
  timestamp: string
  data: { user: ApiUser; changes?: string[]; actorId: string }
}

/** Standard Webhooks' tolerance: a receiver refuses a delivery signed further from its clock than this. */
export const TIMESTAMP_TOLERANCE_S = 5 * 60
const SIGNED = "A delivery is signed the Standard Webhooks way with the endpoint's whsec_ secret (docs/contract.md §6)"
const SHAPED = 'An event payload is what the document declares under webhooks (docs/contract.md §6)'
const schemas = new ResponseSchemas('all')

/** The payload of a delivery when it is an event of `type` about `userId`. */
export function eventOf(delivery: ReceivedDelivery, type: string, userId: string): EventPayload | undefined {
  const payload = delivery.payload as Partial<EventPayload> | undefined
  if (payload?.type !== type || payload.data?.user?.id !== userId) return undefined
  return payload as EventPayload
}

/** The first deliveries of each webhook-id, in the order they arrived. */
export function firstDeliveries(deliveries: ReceivedDelivery[]): ReceivedDelivery[] {
  const seen = new Set<string>()
  return deliveries.filter((delivery) => !seen.has(delivery.id) && seen.add(delivery.id))
}

/**
 * What every delivery must be, reported on the request that caused it: signed with the secret, its
 * timestamp within tolerance, its payload as the document declares, of the expected type.
 */
export function expectWellFormed(
  exchange: Exchange,
  delivery: ReceivedDelivery,
  type: 'user.updated' | 'user.deleted',
): EventPayload {
  const about = `the ${type} delivery ${JSON.stringify(delivery.id)}`
  expectRule(exchange, delivery.id !== '', SIGNED, `Received: ${about} without a webhook-id header`)
  expectRule(
    exchange,
    delivery.signatureProblem === undefined,
    SIGNED,
    `Received: ${about}, whose signature does not verify with the target's secret (${delivery.signatureProblem})\nBody: ${delivery.body.slice(0, 500)}`,
  )
  const skew = Math.abs(delivery.receivedAt / 1000 - Number(delivery.timestamp))
  expectRule(
    exchange,
    /^\d+$/.test(delivery.timestamp) && skew <= TIMESTAMP_TOLERANCE_S,
    SIGNED,
    `Received: webhook-timestamp ${JSON.stringify(delivery.timestamp)} on ${about}\nExpected: Unix seconds within ${TIMESTAMP_TOLERANCE_S} s of the receiver's clock`,
  )
  const schema = eventSchema(type)
  const failures = schema === undefined ? [] : schemas.validate(schema, delivery.payload)
  expectRule(
    exchange,
    failures.length === 0,
    SHAPED,
    `Received: ${about} whose payload does not match the document:\n${failures.map((failure) => `  ${failure.pointer || '(the payload)'}: ${failure.message}`).join('\n')}\nBody: ${delivery.body.slice(0, 500)}`,
  )
  const payload = delivery.payload as EventPayload
  const eventTime = Date.parse(payload.timestamp)
  expectRule(
    exchange,
    Math.abs(eventTime - delivery.receivedAt) <= TIMESTAMP_TOLERANCE_S * 1000,
    SHAPED,
    `Received: "timestamp": ${JSON.stringify(payload.timestamp)} on ${about}, received at ${new Date(delivery.receivedAt).toISOString()}\nExpected: the time of the change (RFC 3339)`,
  )
  return payload
}

/** The fields of CONTRACT §1 that differ between two users. */
export function differingFields(actual: ApiUser, expected: ApiUser): string[] {
  const fields = ['id', 'email', 'name', 'role', 'organizationId', 'status', 'createdAt', 'updatedAt'] as const
  return fields.filter((field) => actual[field] !== expected[field])
}

function eventSchema(type: string): OpenAPIV3_1.SchemaObject | undefined {
  const webhooks = (suite.spec.dereferenced as { webhooks?: Record<string, OpenAPIV3_1.PathItemObject> }).webhooks
  const body = webhooks?.[type]?.post?.requestBody as OpenAPIV3_1.RequestBodyObject | undefined
  return body?.content['application/json']?.schema as OpenAPIV3_1.SchemaObject | undefined
}
