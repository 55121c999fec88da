import { fileURLToPath } from 'node:url'
import { parseState } from '../domain/parse-state.js'
import type { MockState } from '../domain/mock-state.js'
import { AppError, isAppError } from '../errors.js'
import type { Validator } from '../spec/operation-table.js'
import { readJsonFile } from '../files/read-json-file.js'

/** The fixtures shipped with the kit: `fixtures/default.json` (same path from src/ and dist/). */
export const DEFAULT_FIXTURES_PATH = fileURLToPath(new URL('../../fixtures/default.json', import.meta.url))

/**
 * Reads a fixture file (the state format of `schemas/mock-state.schema.json`) and checks it with
 * {@link parseState}. Every failure is an AppError('VALIDATION_FAILED') whose message starts with the
 * file and says what to fix: a missing file, bad JSON (with line and column) or an invalid state
 * (with the JSON pointer of the first problem; `details.errors` lists them all).
 *
 * @example
 * const fixtures = await readFixtureFile(DEFAULT_FIXTURES_PATH, compileStateValidator(spec.dereferenced))
 */
export async function readFixtureFile(
  path: string,
  validateState: Validator,
  /** What the file is to its user, for the messages ("state file" for `--state-file`). */
  description = 'fixture file',
): Promise<MockState> {
  const document = await readJsonFile(path, description)
  try {
    return parseState(document, validateState)
  } catch (error) {
    if (!isAppError(error)) throw error
    throw new AppError(error.code, `The ${description} ${path} is not a valid state. ${error.message}`, error.details)
  }
}
