import type { OpenAPIV3_1 } from 'openapi-types'
import { createAjv, VALIDATOR_OPTIONS } from './create-ajv.js'
import { attachValidators, describeOperations, type RoutedOperation, type Validator } from './operation-table.js'
import { compileStateValidator } from './state-schema.js'

/**
 * The engine's operations and state validator for a document given at start (`--spec FILE`), compiled
 * in memory exactly as the build compiles the kit's own document into standalone code.
 */
export function compileOperations(document: OpenAPIV3_1.Document): {
  operations: RoutedOperation[]
  validateState: Validator
} {
  const { operations, schemas } = describeOperations(document)
  // loadSpec validated every schema against OpenAPI 3.1's meta-schema already.
  const ajv = createAjv({ ...VALIDATOR_OPTIONS, validateSchema: false })
  const validators = Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [name, ajv.compile(schema) as Validator]),
  )
  return {
    operations: attachValidators(operations, validators),
    validateState: compileStateValidator(document),
  }
}
