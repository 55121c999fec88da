import { Ajv2020, type Options } from 'ajv/dist/2020.js'
import formats from 'ajv-formats'

// ajv-formats is CommonJS: under NodeNext its callable arrives as the default export's `default`.
const addFormats = formats.default

/** Keywords OpenAPI 3.1 adds to JSON Schema, and ours; Ajv's strict mode would reject them. */
const OPENAPI_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs', 'x-contract']

/**
 * The options of the engine's validators, at build time and for `--spec` alike: the document's
 * defaults fill missing parameters (`page`, `limit`). Nothing is coerced: bodies never are, and the
 * engine reads query integers itself (decimal digits only, CONTRACT §4).
 */
export const VALIDATOR_OPTIONS = { useDefaults: true } as const satisfies Options

/**
 * The state format's validator (fixture files, `PUT /__mock/state`) stops at the first error: with
 * `allErrors`, a 12 MB body of a million bad users collected a million error objects (2.4 GB).
 */
export const STATE_VALIDATOR_OPTIONS = { allErrors: false } as const satisfies Options

/**
 * An Ajv for the document's schemas: JSON Schema 2020-12 (OpenAPI 3.1's dialect) with formats.
 */
export function createAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, ...options })
  addFormats(ajv)
  ajv.addVocabulary(OPENAPI_KEYWORDS)
  return ajv
}
