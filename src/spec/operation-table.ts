import type { OpenAPIV3_1 } from 'openapi-types'
import { listOperations } from './operations.js'

/** A JSON Schema (2020-12) as plain JSON. */
export type JsonSchema = Record<string, unknown>

/** A compiled validator: Ajv's, built at build time (standalone code) or at start (`--spec`). */
export interface Validator {
  (data: unknown): boolean
  errors?: Array<{ instancePath: string; keyword: string; message?: string; params: Record<string, unknown> }> | null
}

/** What the engine knows of one operation of the document: plain data, generated at build time. */
export interface OperationEntry {
  operationId: string
  /** Upper case: `GET`. */
  method: string
  /** As the document writes it: `/api/users/{id}`. */
  path: string
  /** Whether a 2xx is documented: PATCH/DELETE on /api/users/me only answer 405 (CONTRACT §4). */
  succeeds: boolean
  /** The error statuses it documents (what `Prefer: code=NNN` may ask for). */
  errorStatuses: number[]
  /** Its query parameters; `integer` ones are written in decimal digits (CONTRACT §4). */
  queryParameters: Array<{ name: string; integer: boolean }>
  /** Names of its path parameters, in path order. */
  pathParameters: string[]
  /** Whether it reads an `application/json` body. */
  jsonBody: boolean
  /** Names of its validators in the validator module: query, path parameters, body. */
  validators: { query?: string; path?: string; body?: string }
}

/** An operation with its validators attached: what the engine routes by. */
export interface RoutedOperation extends OperationEntry {
  validate: { query?: Validator; path?: Validator; body?: Validator }
}

/** The operation table and the schemas its validators are compiled from, by validator name. */
export interface OperationTable {
  operations: OperationEntry[]
  schemas: Record<string, JsonSchema>
}

/**
 * The operations of a dereferenced document as the engine needs them. Build time turns the schemas
 * into standalone validators (scripts/generate-artifacts.ts); `--spec FILE` compiles them at start.
 *
 * @example
 * const { operations, schemas } = describeOperations((await loadSpec()).dereferenced)
 */
export function describeOperations(document: OpenAPIV3_1.Document): OperationTable {
  const schemas: Record<string, JsonSchema> = {}
  const operations = listOperations(document).map((operation): OperationEntry => {
    const query = operation.parameters.filter((parameter) => parameter.in === 'query')
    const path = operation.parameters.filter((parameter) => parameter.in === 'path')
    const body = operation.requestBody?.content?.['application/json']?.schema as JsonSchema | undefined
    const validators: OperationEntry['validators'] = {}
    const add = (part: 'query' | 'path' | 'body', schema: JsonSchema | undefined): void => {
      if (!schema) return
      const name = `${operation.operationId}${part[0]?.toUpperCase()}${part.slice(1)}`
      schemas[name] = schema
      validators[part] = name
    }
    add('query', parametersSchema(query))
    add('path', parametersSchema(path))
    add('body', body)
    return {
      operationId: operation.operationId,
      method: operation.method.toUpperCase(),
      path: operation.path,
      succeeds: operation.succeeds,
      errorStatuses: Object.keys(operation.responses)
        .map(Number)
        .filter((status) => status >= 400),
      queryParameters: query.map((parameter) => ({ name: parameter.name, integer: isInteger(parameter) })),
      pathParameters: path.map((parameter) => parameter.name),
      jsonBody: body !== undefined,
      validators,
    }
  })
  return { operations, schemas }
}

/** Attaches each operation's validators, found by name in a module of validators. */
export function attachValidators(
  operations: OperationEntry[],
  validators: Record<string, Validator>,
): RoutedOperation[] {
  const find = (name: string | undefined): Validator | undefined => {
    if (name === undefined) return undefined
    const validator = validators[name]
    if (!validator) throw new Error(`No validator ${name} for the operation table: rebuild (npm run build).`)
    return validator
  }
  return operations.map((operation) => ({
    ...operation,
    validate: {
      query: find(operation.validators.query),
      path: find(operation.validators.path),
      body: find(operation.validators.body),
    },
  }))
}

/** The parameters of one location as one object schema; unknown query parameters are ignored. */
function parametersSchema(parameters: OpenAPIV3_1.ParameterObject[]): JsonSchema | undefined {
  if (parameters.length === 0) return undefined
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.schema ?? {}])),
    required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
  }
}

function isInteger(parameter: OpenAPIV3_1.ParameterObject): boolean {
  return (parameter.schema as { type?: unknown } | undefined)?.type === 'integer'
}
