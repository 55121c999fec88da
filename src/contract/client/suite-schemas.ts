import { createHash } from 'node:crypto'
import type { OpenAPIV3_1 } from 'openapi-types'
import { listOperations } from '../../spec/operations.js'
import { projectCore } from './core-projection.js'

/** The options the suite's validators are compiled with, at build time and at run time alike. */
export const RESPONSE_VALIDATOR_OPTIONS = { strict: false } as const

/**
 * What a schema is, as a short key: two schemas with the same key validate alike. Undefined for one that
 * cannot be written as JSON (a document whose schemas cycle).
 *
 * @example
 * schemaKey({ type: 'string' }) // 'nHd…'
 */
export function schemaKey(schema: object): string | undefined {
  try {
    return createHash('sha256').update(JSON.stringify(schema)).digest('base64url')
  } catch {
    return undefined
  }
}

/**
 * Every schema the suite validates answers and events with, for both layers: response bodies and headers
 * of each operation, webhook payloads. What the build compiles (scripts/generate-artifacts.ts).
 */
export function listSuiteSchemas(document: OpenAPIV3_1.Document): object[] {
  const schemas: object[] = []
  const add = (schema: unknown): void => {
    if (isObject(schema)) schemas.push(schema, projectCore(schema))
  }
  for (const operation of listOperations(document)) {
    for (const response of Object.values(operation.responses)) {
      for (const media of Object.values(response.content ?? {})) add(media.schema)
      for (const header of Object.values(response.headers ?? {}) as OpenAPIV3_1.HeaderObject[]) add(header.schema)
    }
  }
  const webhooks = (document as { webhooks?: Record<string, OpenAPIV3_1.PathItemObject> }).webhooks ?? {}
  for (const item of Object.values(webhooks)) {
    const body = item.post?.requestBody as OpenAPIV3_1.RequestBodyObject | undefined
    for (const media of Object.values(body?.content ?? {})) add(media.schema)
  }
  return schemas
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null
}
