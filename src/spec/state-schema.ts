import type { ValidateFunction } from 'ajv/dist/2020.js'
import type { OpenAPIV3_1 } from 'openapi-types'
import { AppError } from '../errors.js'
import { createAjv, STATE_VALIDATOR_OPTIONS } from './create-ajv.js'
import type { JsonSchema } from './operation-table.js'

/** A compiled validator of the state format; `parseState` runs it before its own rules. */
export type StateValidator = ValidateFunction

/** Keywords whose values are maps of names to schemas: the names are data, never keywords to strip. */
const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas'])

/**
 * The JSON Schema of the state format shared by fixture files, `GET /__mock/state` and
 * `PUT /__mock/state`: `{ organizations, users }`. Each user is the document's `User` schema (taken from
 * the dereferenced document, never re-typed) plus an optional `token`, and nothing else, so that a typo
 * in a fixture is an error rather than an ignored field.
 *
 * @example
 * const { dereferenced } = await loadSpec()
 * const schema = buildStateSchema(dereferenced) // what schemas/mock-state.schema.json holds
 */
export function buildStateSchema(document: OpenAPIV3_1.Document): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'users-api-kit mock state',
    description:
      'The state of the users-api-kit mock: fixture files, GET /__mock/state and PUT /__mock/state. ' +
      'Generated from the User schema of openapi/users.yaml by scripts/write-state-schema.ts; do not edit.',
    type: 'object',
    required: ['organizations', 'users'],
    additionalProperties: false,
    properties: {
      $schema: { type: 'string', description: 'Where an editor finds this schema.' },
      organizations: { type: 'array', items: { $ref: '#/$defs/Organization' } },
      users: { type: 'array', items: { $ref: '#/$defs/StoredUser' } },
    },
    $defs: { Organization: buildOrganizationSchema(), StoredUser: buildStoredUserSchema(document) },
  }
}

/**
 * Compiles {@link buildStateSchema} with the project's Ajv (formats on, no coercion).
 *
 * @example
 * const validateState = compileStateValidator((await loadSpec()).dereferenced)
 */
export function compileStateValidator(document: OpenAPIV3_1.Document): StateValidator {
  return createAjv(STATE_VALIDATOR_OPTIONS).compile(buildStateSchema(document))
}

function buildOrganizationSchema(): JsonSchema {
  return {
    type: 'object',
    description: 'An organization. Its users name it in `organizationId`.',
    required: ['id', 'name'],
    additionalProperties: false,
    properties: {
      id: {
        type: 'string',
        minLength: 1,
        description: 'Opaque. The mock issues `org_` + 20 lowercase base32 characters.',
      },
      name: { type: 'string', minLength: 1 },
    },
  }
}

function buildStoredUserSchema(document: OpenAPIV3_1.Document): JsonSchema {
  const user = readUserSchema(document)
  return {
    ...user,
    description: 'A user as the mock stores it: the User resource of the OpenAPI document, and their token.',
    properties: {
      ...(user['properties'] as JsonSchema),
      token: { type: 'string', minLength: 1, description: 'The Bearer token that authenticates as this user.' },
    },
    // The User schema lets responses carry more fields (CONTRACT §1); a stored user may not.
    additionalProperties: false,
  }
}

function readUserSchema(document: OpenAPIV3_1.Document): JsonSchema {
  const user: unknown = document.components?.schemas?.['User']
  if (!isPlainObject(user) || !isPlainObject(user['properties'])) {
    throw new AppError('INTERNAL', 'The OpenAPI document has no components.schemas.User object schema.')
  }
  if (JSON.stringify(user).includes('"$ref"')) {
    throw new AppError('INTERNAL', 'components.schemas.User still holds a $ref: pass the dereferenced document.')
  }
  return removeVendorKeywords(user)
}

/** `x-contract` and other `x-` keywords are OpenAPI's; a strict JSON Schema validator rejects them. */
function removeVendorKeywords(schema: JsonSchema): JsonSchema {
  const result: JsonSchema = {}
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword.startsWith('x-')) continue
    result[keyword] = SCHEMA_MAP_KEYWORDS.has(keyword) ? mapSchemas(value) : cleanValue(value)
  }
  return result
}

function mapSchemas(value: unknown): unknown {
  if (!isPlainObject(value)) return value
  return Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, cleanValue(schema)]))
}

function cleanValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cleanValue)
  return isPlainObject(value) ? removeVendorKeywords(value) : value
}

function isPlainObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
