import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js'
import type { OpenAPIV3_1 } from 'openapi-types'
import { createAjv } from '../spec/create-ajv.js'
import type { ContractLayer, Operation } from '../spec/operations.js'

/** Which layer of the contract the suite holds a backend to (`verify --only core`: core alone). */
export type SuiteLayer = 'all' | 'core'

export interface SchemaFailure {
  /** JSON pointer into the body. */
  pointer: string
  message: string
  value: unknown
}

/**
 * Validators of the document's response bodies, compiled on first use. With `core`, every property
 * the document marks `x-contract: profile` is neither required nor checked, so a backend that made
 * other profile choices is held to the core alone.
 */
export class ResponseSchemas {
  private readonly ajv: Ajv2020 = createAjv({ strict: false })
  private readonly validators = new Map<object, ValidateFunction>()

  constructor(private readonly layer: SuiteLayer) {}

  /** The failures of a body against a response's schema for a media type; [] when it conforms. */
  validate(schema: OpenAPIV3_1.SchemaObject, body: unknown): SchemaFailure[] {
    const validate = this.compile(schema)
    if (validate(body)) return []
    return (validate.errors ?? []).map((error) => ({
      pointer: error.instancePath,
      message: error.message ?? error.keyword,
      value: valueAt(body, error.instancePath),
    }))
  }

  private compile(schema: object): ValidateFunction {
    let validate = this.validators.get(schema)
    if (!validate) {
      validate = this.ajv.compile(this.layer === 'core' ? projectCore(schema) : schema)
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

export function layerOf(element: unknown): ContractLayer {
  return (element as { 'x-contract'?: unknown } | null)?.['x-contract'] === 'core' ? 'core' : 'profile'
}

/**
 * A copy of a schema where profile properties are optional and unchecked. Schemas are dereferenced
 * trees that may share nodes; the copy keeps sharing by memo.
 */
export function projectCore(schema: object, memo = new Map<object, object>()): object {
  const known = memo.get(schema)
  if (known) return known
  if (Array.isArray(schema)) {
    const copy: unknown[] = []
    memo.set(schema, copy)
    for (const item of schema) copy.push(isObject(item) ? projectCore(item, memo) : item)
    return copy
  }
  const copy: Record<string, unknown> = {}
  memo.set(schema, copy)
  const properties = (schema as { properties?: Record<string, unknown> }).properties
  const profile = new Set(
    Object.entries(properties ?? {})
      .filter(([, property]) => isObject(property) && !isCoreProperty(property))
      .map(([name]) => name),
  )
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'required' && Array.isArray(value)) copy.required = value.filter((name) => !profile.has(String(name)))
    else if (key === 'properties' && isObject(value)) {
      copy.properties = Object.fromEntries(
        Object.entries(value).map(([name, property]) => [
          name,
          profile.has(name) ? true : isObject(property) ? projectCore(property, memo) : property,
        ]),
      )
    } else copy[key] = isObject(value) ? projectCore(value, memo) : value
  }
  return copy
}

/** A property is core when it, or the schema it is (a `$ref` resolved in place), says so. */
function isCoreProperty(property: object): boolean {
  return layerOf(property) === 'core'
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null
}

function valueAt(body: unknown, pointer: string): unknown {
  let value = body
  for (const segment of pointer.split('/').slice(1)) {
    const key = segment.replaceAll('~1', '/').replaceAll('~0', '~')
    value = isObject(value) ? (value as Record<string, unknown>)[key] : undefined
  }
  return value
}
