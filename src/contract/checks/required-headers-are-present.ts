import type { OpenAPIV3_1 } from 'openapi-types'
import { layerOf } from '../client/core-projection.js'
import { documentedResponse } from '../client/response-schemas.js'
import { describeValue } from './describe-value.js'
import { defineCheck } from './define-check.js'

export const requiredHeadersArePresent = defineCheck({
  name: 'required-headers-are-present',
  rule: 'Every header the documented response requires is present and matches its schema',
  layer: 'core',
  covers: ['§2.www-authenticate', '§4.other.405', '§5.429-503'],
  verify({ response, operation }, { schemas, layer }) {
    const documented = operation && documentedResponse(operation, response.status)
    if (!operation || !documented) return undefined
    const where = `${operation.operationId} ${response.status}`
    const headers = (documented.headers ?? {}) as Record<string, OpenAPIV3_1.HeaderObject>
    for (const [name, header] of Object.entries(headers)) {
      // OpenAPI 3.1, Response Object: a header named Content-Type is ignored.
      if (!header.required || name.toLowerCase() === 'content-type') continue
      if (layer === 'core' && layerOf(header) !== 'core') continue
      const value = response.headers[name.toLowerCase()]
      if (value === undefined) return `Received: no ${name} header on ${where}\nDocumented: ${name} (required)`
      if (!header.schema) continue
      const schema = header.schema as OpenAPIV3_1.SchemaObject
      const [failure] = schemas.validate(schema, toSchemaValue(schema, value))
      if (failure) {
        return `Received: ${name}: ${value} on ${where} (${failure.message})\nDocumented: ${name} of the schema ${describeValue(schema, 200)}`
      }
    }
    return undefined
  },
})

/** Headers are text; a schema of a number (`Retry-After: { type: integer }`) judges the number it spells. */
function toSchemaValue(schema: OpenAPIV3_1.SchemaObject, value: string): unknown {
  const types = ([] as unknown[]).concat(schema.type ?? [])
  const numeric = types.includes('integer') || types.includes('number')
  return numeric && !types.includes('string') && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value
}
