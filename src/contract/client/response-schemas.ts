import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js'
import type { OpenAPIV3_1 } from 'openapi-types'
import { createAjv } from '../../spec/create-ajv.js'
import { RESPONSE_VALIDATORS } from '../../spec/generated/response-validators.js'
import { toValidationIssue } from '../../spec/schema-issues.js'
import type { Operation } from '../../spec/operations.js'
import { projectCore } from './core-projection.js'
import { RESPONSE_VALIDATOR_OPTIONS, schemaKey } from './suite-schemas.js'

/** Which layer of the contract the suite holds a backend to (`verify --only core`: core alone). */
export type SuiteLayer = 'all' | 'core'

export interface SchemaFailure {
  /** JSON pointer into the body. */
  pointer: string
  message: string
  value: unknown
}

/**
 * Validators of the document's response bodies, headers and events, cached for the client's life. With `core`,
 * every property the document marks `x-contract: profile` is neither required nor checked, so a backend that
 * made other profile choices is held to the core alone. The kit's own document's were compiled at build
 * time (scripts/generate-artifacts.ts), found by what they validate (`schemaKey`); any other schema (`--spec`)
 * is compiled on first use.
 */
export class ResponseSchemas {
  private ajv: Ajv2020 | undefined
  private readonly validators = new Map<object, ValidateFunction>()

  constructor(private readonly layer: SuiteLayer) {}

  /** The failures of a body against a response's schema for a media type; [] when it conforms. */
  validate(schema: OpenAPIV3_1.SchemaObject, body: unknown): SchemaFailure[] {
    const validate = this.compile(schema)
    if (validate(body)) return []
    return (validate.errors ?? []).map((error) => {
      // The pointer names a missing or unknown key itself, not the object that holds it.
      const { path, message } = toValidationIssue(error, 'body')
      return { pointer: path, message, value: valueAt(body, path) }
    })
  }

  private compile(schema: object): ValidateFunction {
    let validate = this.validators.get(schema)
    if (!validate) {
      const source = this.layer === 'core' ? projectCore(schema) : schema
      const key = schemaKey(source)
      const prebuilt = key === undefined ? undefined : (RESPONSE_VALIDATORS[key] as ValidateFunction | undefined)
      validate = prebuilt ?? (this.ajv ??= createAjv(RESPONSE_VALIDATOR_OPTIONS)).compile(source)
      this.validators.set(schema, validate)
    }
    return validate
  }
}

/** The documented response of an operation for a status (an exact code, then `4XX`, then `default`). */
export function documentedResponse(operation: Operation, status: number): OpenAPIV3_1.ResponseObject | undefined {
  const responses = operation.responses
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default
}

function valueAt(body: unknown, pointer: string): unknown {
  let value = body
  for (const segment of pointer.split('/').slice(1)) {
    const key = segment.replaceAll('~1', '/').replaceAll('~0', '~')
    value = isObject(value) ? (value as Record<string, unknown>)[key] : undefined
  }
  return value
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null
}
