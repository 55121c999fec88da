import type { OpenAPIV3_1 } from 'openapi-types'
import { isInMediaRange, isJsonMediaType, mediaTypeOf } from '../client/exchange.js'
import { documentedResponse } from '../client/response-schemas.js'
import { describeValue } from './describe-value.js'
import { defineCheck } from './define-check.js'
import { isHead } from '../../http/methods.js'

/** The failures a message lists; the count of the others follows. */
const SHOWN_FAILURES = 5

export const bodyMatchesSchema = defineCheck({
  name: 'body-matches-schema',
  rule: "The body validates against the document's schema for the operation, status and media type",
  layer: 'core',
  covers: [],
  verify({ request, response, operation }, { schemas, layer }) {
    const mediaType = mediaTypeOf(response)
    if (!operation || mediaType === undefined || isHead(request.method)) return undefined
    // CONTRACT §5: problem bodies are profile; the core holds successes to their schemas.
    if (layer === 'core' && (response.status < 200 || response.status > 299)) return undefined
    const schema = documentedSchema(documentedResponse(operation, response.status), mediaType)
    // No schema or an undocumented media type: content-type-is-documented reports the latter.
    if (!schema || !isJsonMediaType(mediaType)) return undefined
    const where = `${operation.operationId} ${response.status} ${mediaType}`
    if (response.text === '') return `Received: no body\nDocumented: a body of the schema of ${where}`
    // Not JSON although it says so: content-type-is-documented reports it.
    if (response.body === undefined) return undefined
    const failures = schemas.validate(schema, response.body)
    if (failures.length === 0) return undefined
    const lines = failures
      .slice(0, SHOWN_FAILURES)
      .map(({ pointer, message, value }) => `  ${pointer || '(the body)'} ${message}; received ${describeValue(value)}`)
    if (failures.length > SHOWN_FAILURES) lines.push(`  … and ${failures.length - SHOWN_FAILURES} more`)
    return `Received: a body that breaks the schema of ${where}:\n${lines.join('\n')}\nDocumented: the schema of ${where}`
  },
})

/** The schema of a media type: its own entry first, then a range (`application/*`) that holds it. */
function documentedSchema(
  response: OpenAPIV3_1.ResponseObject | undefined,
  mediaType: string,
): OpenAPIV3_1.SchemaObject | undefined {
  const entries = Object.entries(response?.content ?? {})
  const entry =
    entries.find(([range]) => range.split(';')[0]?.trim().toLowerCase() === mediaType) ??
    entries.find(([range]) => isInMediaRange(mediaType, range))
  return entry?.[1].schema as OpenAPIV3_1.SchemaObject | undefined
}
