import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { ACTOR_NAMES, parseTarget, readTargetFile, TARGET_SCHEMA_PATH } from '../../src/contract/target/target.js'
import { AppError } from '../../src/errors.js'
import { ACTOR_DESCRIPTIONS, INACTIVE_DESCRIPTIONS } from '../../src/target/target-format.js'

const VALID_TARGET = {
  $schema: '../schemas/target.schema.json',
  baseUrl: 'http://127.0.0.1:4010',
  actors: {
    owner: { token: 'owner-token' },
    admin: { token: 'admin-token' },
    viewer: { token: 'viewer-token' },
    bot: { token: 'bot-token' },
    outsider: { token: 'outsider-token' },
  },
  disposable: [{ id: 'usr_disposableqqqqqqqqq', token: 'tok_disposable' }],
}

function captureError(run: () => unknown): AppError {
  try {
    run()
  } catch (error) {
    if (error instanceof AppError) return error
    throw error
  }
  throw new Error('the target was accepted')
}

function firstPath(input: unknown): string | undefined {
  const error = captureError(() => parseTarget(input))
  expect(error.code).toBe('VALIDATION_FAILED')
  const path = error.details.errors?.[0]?.path
  expect(error.message).toContain(`Invalid target at ${path === '' ? 'the root' : path}: `)
  return path
}

describe('parseTarget', () => {
  test('accepts a full target and returns its actors and disposable users', () => {
    const { baseUrl, actors, disposable } = VALID_TARGET
    expect(parseTarget(VALID_TARGET)).toEqual({ baseUrl, actors, disposable })
  })

  test('every actor is optional; missing actors and disposable users are empty', () => {
    expect(parseTarget({ baseUrl: 'https://users.example.com' })).toEqual({
      baseUrl: 'https://users.example.com',
      actors: {},
      disposable: [],
    })
  })

  test('drops trailing slashes of the base URL, keeps its path', () => {
    expect(parseTarget({ baseUrl: 'https://example.com/users-service/' }).baseUrl).toBe(
      'https://example.com/users-service',
    )
  })

  test('does not share objects with its input', () => {
    const input = structuredClone(VALID_TARGET)
    const target = parseTarget(input)
    target.disposable.pop()
    expect(input.disposable).toHaveLength(1)
  })

  test('rejects a missing baseUrl', () => {
    expect(firstPath({ actors: {} })).toBe('/baseUrl')
  })

  test.each(['ftp://example.com', 'example.com', '127.0.0.1:4010', 'not a url', 'http://', 'http://host/?q=1'])(
    'rejects the base URL %s',
    (baseUrl) => {
      expect(firstPath({ baseUrl })).toBe('/baseUrl')
    },
  )

  test('rejects a misspelt actor', () => {
    expect(firstPath({ baseUrl: 'http://localhost', actors: { ownr: { token: 't' } } })).toBe('/actors/ownr')
  })

  test('rejects an actor without a token, or with an empty one', () => {
    expect(firstPath({ baseUrl: 'http://localhost', actors: { admin: {} } })).toBe('/actors/admin/token')
    expect(firstPath({ baseUrl: 'http://localhost', actors: { admin: { token: '' } } })).toBe('/actors/admin/token')
  })

  test('rejects disposable users that are not an array of { id, token }', () => {
    expect(firstPath({ baseUrl: 'http://localhost', disposable: { id: 'u', token: 't' } })).toBe('/disposable')
    expect(firstPath({ baseUrl: 'http://localhost', disposable: [{ id: 'u' }] })).toBe('/disposable/0/token')
  })

  test('rejects an unknown top-level key', () => {
    expect(firstPath({ baseUrl: 'http://localhost', actor: {} })).toBe('/actor')
  })

  test('rejects a document that is not an object', () => {
    expect(firstPath('http://localhost')).toBe('')
  })
})

describe('readTargetFile', () => {
  let directory: string

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'users-api-kit-target-'))
  })

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true })
  })

  async function writeTarget(text: string): Promise<string> {
    const path = join(directory, 'target.json')
    await writeFile(path, text)
    return path
  }

  async function captureFileError(path: string): Promise<AppError> {
    const error: unknown = await readTargetFile(path).then(
      () => undefined,
      (caught: unknown) => caught,
    )
    if (error instanceof AppError) return error
    throw new Error(`expected an AppError, got ${String(error)}`)
  }

  test('reads a valid file', async () => {
    const path = await writeTarget(JSON.stringify(VALID_TARGET, null, 2))
    expect((await readTargetFile(path)).actors.owner?.token).toBe('owner-token')
  })

  test('a missing file: the message names it and the command that writes one', async () => {
    const path = join(directory, 'missing.json')
    expect((await captureFileError(path)).message).toBe(
      `There is no target file ${path}. Write one to fill in: npx users-api-kit init-target ${path} (for a running users-api-kit mock, give --base-url http://127.0.0.1:4010 instead).`,
    )
  })

  test('bad JSON: the message names the file, the line and the column', async () => {
    const path = await writeTarget('{\n  "baseUrl": "http://localhost",\n  "actors": { "owner": }\n}')
    expect((await captureFileError(path)).message).toBe(
      `The target file ${path} is not valid JSON (line 3, column 24): Unexpected token '}'`,
    )
  })

  test('an invalid document: the message names the file and the path', async () => {
    const path = await writeTarget(JSON.stringify({ baseUrl: 'ftp://example.com' }))
    expect((await captureFileError(path)).message).toBe(
      `The target file ${path} is not valid. Invalid target at /baseUrl: must be an http or https URL`,
    )
  })
})

describe('schemas/target.schema.json', () => {
  test("is a 2020-12 schema that lists every actor of the Target type, described in the kit's words", async () => {
    const schema = JSON.parse(await readFile(TARGET_SCHEMA_PATH, 'utf8')) as {
      $schema: string
      properties: { actors: { properties: Record<string, { description: string }> } }
    }
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
    const actors = schema.properties.actors.properties
    expect(Object.keys(actors)).toEqual([...ACTOR_NAMES])
    for (const name of ACTOR_NAMES) {
      const words = ACTOR_DESCRIPTIONS[name]
      expect(actors[name]?.description).toBe(`${words.charAt(0).toUpperCase()}${words.slice(1)}.`)
    }
  })

  test("lists the inactive users' tokens, optional, described in the kit's words", async () => {
    const schema = JSON.parse(await readFile(TARGET_SCHEMA_PATH, 'utf8')) as {
      required: string[]
      properties: { inactive: { properties: Record<string, { description: string }> } }
    }
    expect(schema.required).not.toContain('inactive')
    const inactive = schema.properties.inactive.properties
    expect(Object.keys(inactive)).toEqual(Object.keys(INACTIVE_DESCRIPTIONS))
    for (const [name, words] of Object.entries(INACTIVE_DESCRIPTIONS)) {
      expect(inactive[name]?.description).toBe(`${words.charAt(0).toUpperCase()}${words.slice(1)}.`)
    }
  })
})
