import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js'
import { AppError } from '../../errors.js'
import { readJsonFile } from '../../files/read-json-file.js'
import { validateTarget as validateTargetDocument } from '../../spec/generated/target-validator.js'
import { toValidationIssue } from '../../spec/schema-issues.js'
import type { Target } from '../../target/target-format.js'

export {
  ACTOR_NAMES,
  type ActorName,
  type DisposableUser,
  type InactiveUsers,
  type Target,
  type WebhookReceiverSettings,
} from '../../target/target-format.js'

/** The hand-written schema of target files, shipped with the kit. */
export const TARGET_SCHEMA_PATH = fileURLToPath(new URL('../../../schemas/target.schema.json', import.meta.url))

// Compiled from that schema by the build (scripts/generate-artifacts.ts), as createAjv() would compile it.
const validateTarget = validateTargetDocument as ValidateFunction

/**
 * Checks a target document against `schemas/target.schema.json`. Missing `actors` and `disposable`
 * are empty; trailing slashes of `baseUrl` are dropped.
 *
 * @throws AppError('VALIDATION_FAILED') naming the JSON pointer of the first problem.
 * @example
 * const target = parseTarget({ baseUrl: 'http://127.0.0.1:4010', actors: { owner: { token: 'owner-token' } } })
 */
export function parseTarget(input: unknown): Target {
  const placeholder = findPlaceholder(input)
  if (placeholder !== undefined) {
    throw new AppError(
      'VALIDATION_FAILED',
      `Fill in ${placeholder}: it still holds the placeholder of users-api-kit init-target${placeholder.startsWith('/actors/') ? ' (or delete the actor: its checks are then skipped, saying so)' : placeholder.startsWith('/inactive/') ? ' (or delete it: its check is then skipped as your choice)' : ''}.`,
      { errors: [{ in: 'body', path: placeholder, message: 'is a placeholder' }] },
    )
  }
  if (!validateTarget(input)) {
    const [first] = validateTarget.errors ?? []
    const { path, message } = first ? describeTargetError(first) : { path: '', message: 'is invalid' }
    throw new AppError('VALIDATION_FAILED', `Invalid target at ${path === '' ? 'the root' : path}: ${message}`, {
      errors: [{ in: 'body', path, message }],
    })
  }
  const document = input as Partial<Target> & { baseUrl: string }
  return {
    baseUrl: document.baseUrl.replace(/\/+$/, ''),
    actors: structuredClone(document.actors ?? {}),
    ...(document.inactive === undefined ? {} : { inactive: structuredClone(document.inactive) }),
    disposable: structuredClone(document.disposable ?? []),
    ...(document.webhooks === undefined ? {} : { webhooks: structuredClone(document.webhooks) }),
  }
}

/**
 * Reads and checks a target file. A missing file, bad JSON (with line and column) or an invalid
 * document is an AppError whose message names the file and the problem.
 *
 * @example
 * const target = await readTargetFile('users-api.target.json')
 */
export async function readTargetFile(path: string): Promise<Target> {
  if (!existsSync(path)) {
    throw new AppError(
      'VALIDATION_FAILED',
      `There is no target file ${path}. Write one to fill in: npx users-api-kit init-target ${path}` +
        ' (for a running users-api-kit mock, give --base-url http://127.0.0.1:4010 instead).',
    )
  }
  const document = await readJsonFile(path, 'target file')
  try {
    return parseTarget(document)
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    throw new AppError(error.code, `The target file ${path} is not valid. ${error.message}`, error.details)
  }
}

function describeTargetError(error: ErrorObject): { path: string; message: string } {
  if (error.keyword === 'pattern' && error.instancePath === '/baseUrl') {
    return { path: error.instancePath, message: 'must be an http or https URL' }
  }
  return toValidationIssue(error, 'body')
}

/** What init-target writes where a value must be filled in. */
export const PLACEHOLDER = 'FILL-ME-IN'

/** The JSON pointer of the first string value that still starts with the placeholder. */
function findPlaceholder(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.startsWith(PLACEHOLDER) ? path : undefined
  if (value === null || typeof value !== 'object') return undefined
  for (const [key, item] of Object.entries(value)) {
    const found = findPlaceholder(item, `${path}/${key}`)
    if (found !== undefined) return found
  }
  return undefined
}
