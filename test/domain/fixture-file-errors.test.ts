import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { AppError } from '../../src/errors.js'
import { DEFAULT_FIXTURES_PATH, readFixtureFile } from '../../src/seed/read-fixtures.js'
import { loadSpec } from '../../src/spec/load-spec.js'
import { compileStateValidator, type StateValidator } from '../../src/spec/state-schema.js'

let validate: StateValidator
let directory: string

beforeAll(async () => {
  validate = compileStateValidator((await loadSpec()).dereferenced)
})

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'users-api-kit-fixtures-'))
})

afterEach(async () => {
  await rm(directory, { recursive: true, force: true })
})

async function writeFixture(text: string): Promise<string> {
  const path = join(directory, 'fixture.json')
  await writeFile(path, text)
  return path
}

async function captureError(path: string): Promise<AppError> {
  const error: unknown = await readFixtureFile(path, validate).then(
    () => undefined,
    (caught: unknown) => caught,
  )
  if (error instanceof AppError) return error
  throw new Error(`expected an AppError, got ${String(error)}`)
}

describe('readFixtureFile', () => {
  test('reads the default fixtures', async () => {
    const state = await readFixtureFile(DEFAULT_FIXTURES_PATH, validate)
    expect(state.organizations.map((organization) => organization.name)).toEqual(['Acme', 'Globex', 'Initech'])
    expect(state).not.toHaveProperty('$schema')
  })

  test('a missing file: the message names the file and says it does not exist', async () => {
    const path = join(directory, 'nowhere.json')
    const error = await captureError(path)
    expect(error.code).toBe('VALIDATION_FAILED')
    expect(error.message).toBe(`Cannot read the fixture file ${path}: no such file.`)
  })

  test('bad JSON: the message names the file, the line and the column', async () => {
    const path = await writeFixture('{\n  "organizations": [],\n  "users": [,]\n}\n')
    const error = await captureError(path)
    expect(error.message).toContain(`The fixture file ${path} is not valid JSON (line 3, column 13)`)
  })

  test('bad JSON that V8 locates itself: a missing comma', async () => {
    const path = await writeFixture('{\n  "organizations": []\n  "users": []\n}\n')
    expect((await captureError(path)).message).toContain('(line 3, column 3)')
  })

  test('a file cut short: the position is its end', async () => {
    const path = await writeFixture('{\n  "organizations": [')
    expect((await captureError(path)).message).toContain('(line 2, column 21)')
  })

  test('an invalid state: the message names the file and the path of the first problem', async () => {
    const fixtures = JSON.parse(await readFile(DEFAULT_FIXTURES_PATH, 'utf8')) as { users: Array<{ email: string }> }
    const [first, second] = fixtures.users
    if (!first || !second) throw new Error('the default fixtures need two users')
    second.email = first.email.toUpperCase()
    const path = await writeFixture(JSON.stringify(fixtures))
    const error = await captureError(path)
    expect(error.message).toBe(
      `The fixture file ${path} is not a valid state. ` +
        'Invalid state at /users/1/email: duplicates /users/0/email (emails are unique, case-insensitively)',
    )
    expect(error.details.errors?.[0]?.path).toBe('/users/1/email')
  })

  test('a byte-order mark is tolerated', async () => {
    const path = await writeFixture(`\uFEFF${JSON.stringify({ organizations: [], users: [] })}`)
    expect(await readFixtureFile(path, validate)).toEqual({ organizations: [], users: [] })
  })
})
