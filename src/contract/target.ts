import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { ErrorObject } from 'ajv/dist/2020.js'
import { AppError } from '../errors.js'
import { readJsonFile } from '../files/read-json-file.js'
import { createAjv } from '../spec/create-ajv.js'
import { toValidationIssue } from '../spec/schema-issues.js'

/** The hand-written schema of target files, shipped with the kit. */
export const TARGET_SCHEMA_PATH = fileURLToPath(new URL('../../schemas/target.schema.json', import.meta.url))

export const ACTOR_NAMES = ['owner', 'admin', 'viewer', 'bot', 'outsider'] as const
export type ActorName = (typeof ACTOR_NAMES)[number]

export interface Actor {
  token: string
}

/** A user the suite may change and delete: an ACTIVE CLIENT_VIEWER of the owner's organization. */
export interface DisposableUser {
  id: string
  token: string
}

/**
 * What the contract suite tests: a users API and tokens of its users. owner, admin, viewer and bot are
 * ACTIVE users of one organization; outsider an ACTIVE user of another. A missing actor skips the checks
 * that need it.
 */
export interface Target {
  /** http(s), without a trailing slash: the suite appends `/api/users`. */
  baseUrl: string
  actors: Partial<Record<ActorName, Actor>>
  disposable: DisposableUser[]
}

const validateTarget = createAjv().compile(JSON.parse(readFileSync(TARGET_SCHEMA_PATH, 'utf8')) as object)

/**
 * Checks a target document against `schemas/target.schema.json`. Missing `actors` and `disposable`
 * are empty; trailing slashes of `baseUrl` are dropped.
 *
 * @throws AppError('VALIDATION_FAILED') naming the JSON pointer of the first problem.
 * @example
 * const target = parseTarget({ baseUrl: 'http://127.0.0.1:4010', actors: { owner: { token: 'owner-token' } } })
 */
export function parseTarget(input: unknown): Target {
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
    disposable: structuredClone(document.disposable ?? []),
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
