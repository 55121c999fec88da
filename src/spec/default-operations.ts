import { OPERATION_ENTRIES } from './generated/operation-entries.js'
import { validateState } from './generated/state-validator.js'
import * as validators from './generated/validators.js'
import { attachValidators, type RoutedOperation, type Validator } from './operation-table.js'

/** The operations of the kit's own openapi/users.yaml, with validators compiled at build time. */
export const DEFAULT_OPERATIONS: RoutedOperation[] = attachValidators(
  OPERATION_ENTRIES,
  validators as unknown as Record<string, Validator>,
)

/** The state format's validator (fixture files, `PUT /__mock/state`), compiled at build time. */
export const validateDefaultState = validateState as unknown as Validator
