import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, test } from 'vitest'
import { renderArtifacts } from '../../scripts/generate-artifacts.js'
import { createUsersApiMock } from '../../src/mock-instance/create-users-api-mock.js'
import { DEFAULT_SEED_OPTIONS } from '../../src/seed/default-seed-options.js'
import { generateState } from '../../src/seed/generate-state.js'
import { DEFAULT_FIXTURES, DEFAULT_STATE_JSON } from '../../src/seed/generated/default-state.js'
import { compileOperations } from '../../src/spec/compile-operations.js'
import { DEFAULT_OPERATIONS, validateDefaultState } from '../../src/spec/default-operations.js'
import { DEFAULT_SPEC_PATH, loadSpec, readSpecFile } from '../../src/spec/load-spec.js'
import type { RoutedOperation, Validator } from '../../src/spec/operation-table.js'
import type { OpenAPIV3_1 } from 'openapi-types'
import { projectCore } from '../../src/contract/client/core-projection.js'
import { ResponseSchemas } from '../../src/contract/client/response-schemas.js'
import { listSuiteSchemas, RESPONSE_VALIDATOR_OPTIONS, schemaKey } from '../../src/contract/client/suite-schemas.js'
import { createAjv } from '../../src/spec/create-ajv.js'
import { RESPONSE_VALIDATORS } from '../../src/spec/generated/response-validators.js'

// The build writes the engine's validators, operation table and default state into src/ (scripts/
// generate-artifacts.ts), so that nothing is compiled or faked at start. These tests keep the checked-in
// files what the build would write now, and equal to what the runtime paths (`--spec`, another seed) make.

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** Where two long texts part: line, column and a little of both around it (never a diff of a megabyte). */
function firstDifference(expected: string, actual: string): string {
  let at = 0
  while (at < expected.length && expected[at] === actual[at]) at++
  const line = expected.slice(0, at).split('\n').length
  const column = at - expected.lastIndexOf('\n', at - 1)
  const around = (text: string): string => JSON.stringify(text.slice(Math.max(0, at - 40), at + 40))
  return `first difference at line ${line}, column ${column}: expected …${around(expected)}…, found …${around(actual)}…`
}

describe('the checked-in generated files', () => {
  test('are what scripts/generate-artifacts.ts renders from openapi/users.yaml and fixtures/ now', async () => {
    const artifacts = await renderArtifacts()
    expect(artifacts.map((artifact) => artifact.path).sort()).toEqual([
      'src/seed/generated/default-state.ts',
      'src/spec/generated/default-document.ts',
      'src/spec/generated/operation-entries.ts',
      'src/spec/generated/response-validators.ts',
      'src/spec/generated/state-validator.ts',
      'src/spec/generated/target-validator.ts',
      'src/spec/generated/validators.ts',
    ])
    const stale: string[] = []
    for (const { path, content } of artifacts) {
      const current = await readFile(`${ROOT}${path}`, 'utf8').catch(() => undefined)
      if (current === undefined) stale.push(`${path} is missing: run npm run build.`)
      else if (current !== content)
        stale.push(
          `${path} differs from what the build writes now (${firstDifference(content, current)}): run npm run build.`,
        )
    }
    expect(stale, stale.join('\n')).toEqual([])
  }, 60_000)
})

describe('the default state generated at build time', () => {
  test('is the seed the mock starts with by default, each mock its own copy', async () => {
    expect(DEFAULT_SEED_OPTIONS).toEqual({ seed: 1, usersPerOrganization: 50 })
    const mocks = [await createUsersApiMock(), await createUsersApiMock({ seed: 1, users: 50 })]
    for (const mock of mocks) expect(mock.seed).toStrictEqual(JSON.parse(DEFAULT_STATE_JSON))
    // A copy of its own: a caller who changes mock.seed changes no other mock's.
    expect(mocks[0]?.seed).not.toBe(mocks[1]?.seed)
    mocks[0]?.seed.users.pop()
    expect(mocks[1]?.seed).toStrictEqual(JSON.parse(DEFAULT_STATE_JSON))
  })

  test('is byte for byte what the seed generates at runtime (seed 1, 50 users per organization)', async () => {
    const prebuilt = DEFAULT_STATE_JSON
    const generated = JSON.stringify(generateState({ fixtures: DEFAULT_FIXTURES, seed: 1, usersPerOrganization: 50 }))
    expect(generated === prebuilt, firstDifference(prebuilt, generated)).toBe(true)

    // The mock's own runtime path: fixtures given, so the prebuilt state is not taken.
    const mock = await createUsersApiMock({ fixtures: DEFAULT_FIXTURES, seed: 1, users: 50 })
    expect(JSON.stringify(mock.seed) === prebuilt, 'createUsersApiMock({ fixtures }) seeds the same state').toBe(true)
  })
})

describe('the document read at build time', () => {
  test("is what loadSpec answers for the kit's own document: openapi/users.yaml as written and dereferenced", async () => {
    const fromFile = await readSpecFile(DEFAULT_SPEC_PATH)
    const prebuilt = await loadSpec()
    expect(prebuilt.path).toBe(DEFAULT_SPEC_PATH)
    expect(prebuilt.document).toStrictEqual(fromFile.document)
    expect(prebuilt.dereferenced).toStrictEqual(fromFile.dereferenced)
  })
})

describe("the contract suite's validators compiled at build time", () => {
  test('hold every schema the suite validates answers and events with, for both layers', async () => {
    const schemas = listSuiteSchemas((await loadSpec()).dereferenced)
    expect(schemas.length).toBeGreaterThan(40)
    const missing = schemas.filter((schema) => !((schemaKey(schema) ?? '') in RESPONSE_VALIDATORS))
    expect(missing.map((schema) => JSON.stringify(schema).slice(0, 200))).toEqual([])
  })

  test('judge as the validators compiled at run time do', async () => {
    const { dereferenced } = await loadSpec()
    const me = dereferenced.paths?.['/api/users/me']?.get?.responses?.['200'] as OpenAPIV3_1.ResponseObject
    const schema = me.content?.['application/json']?.schema as OpenAPIV3_1.SchemaObject
    const page = { data: { id: 1, email: 'a' } }
    for (const layer of ['all', 'core'] as const) {
      const prebuilt = new ResponseSchemas(layer).validate(schema, page)
      const compiled = createAjv(RESPONSE_VALIDATOR_OPTIONS).compile(layer === 'core' ? projectCore(schema) : schema)
      expect(compiled(page)).toBe(false)
      expect(prebuilt.length).toBe(compiled.errors?.length)
      expect(prebuilt.length).toBeGreaterThan(0)
    }
  })
})

describe('the validators compiled at build time', () => {
  let runtime: ReturnType<typeof compileOperations>

  beforeAll(async () => {
    runtime = compileOperations((await readSpecFile(DEFAULT_SPEC_PATH)).dereferenced)
  })

  /** An operation's plain data, without its validator functions. */
  const dataOf = ({ validate, ...entry }: RoutedOperation) => ({
    ...entry,
    validates: Object.keys(validate).filter((part) => validate[part as keyof typeof validate] !== undefined),
  })

  function validatorOf(operations: RoutedOperation[], operationId: string, part: 'query' | 'path' | 'body'): Validator {
    const validator = operations.find((operation) => operation.operationId === operationId)?.validate[part]
    if (!validator) throw new Error(`No ${part} validator for ${operationId}.`)
    return validator
  }

  /** A validator's verdict, its errors, and the input as it left it (defaults filled in). */
  function verdictOf(validate: Validator, input: unknown) {
    const data = structuredClone(input)
    const valid = validate(data)
    return { valid, errors: validate.errors ?? null, data }
  }

  test('come from the same operation table as those compiled at start from the document', () => {
    expect(DEFAULT_OPERATIONS.map(dataOf)).toEqual(runtime.operations.map(dataOf))
  })

  const SAMPLES: Array<{ operationId: string; part: 'query' | 'path' | 'body'; inputs: unknown[] }> = [
    {
      operationId: 'listUsers',
      part: 'query',
      inputs: [{}, { page: 0 }, { page: 2, limit: 100 }, { limit: 101 }, { role: 'x' }, { role: 'CLIENT_ADMIN' }],
    },
    { operationId: 'updateUser', part: 'body', inputs: [{}, { name: '' }, { name: 'Ada' }, { foo: 1 }, null, []] },
    { operationId: 'getUser', part: 'path', inputs: [{ id: 'usr_abc' }, { id: '' }, { id: 'x'.repeat(5000) }] },
  ]

  const CASES = SAMPLES.flatMap(({ operationId, part, inputs }) =>
    inputs.map((input) => ({ operationId, part, input, shown: JSON.stringify(input).slice(0, 40) })),
  )

  test.each(CASES)(
    'give the verdict and errors of those compiled at start: $operationId $part $shown',
    ({ operationId, part, input }) => {
      const prebuilt = verdictOf(validatorOf(DEFAULT_OPERATIONS, operationId, part), input)
      const compiled = verdictOf(validatorOf(runtime.operations, operationId, part), input)
      expect(prebuilt).toEqual(compiled)
    },
  )

  test('the samples tell valid from invalid as the document says', () => {
    const listUsers = validatorOf(DEFAULT_OPERATIONS, 'listUsers', 'query')
    const updateUser = validatorOf(DEFAULT_OPERATIONS, 'updateUser', 'body')
    expect(verdictOf(listUsers, {})).toMatchObject({ valid: true, data: { page: 1, limit: 20 } })
    expect([{ page: 0 }, { limit: 101 }, { role: 'x' }].map((input) => verdictOf(listUsers, input).valid)).toEqual([
      false,
      false,
      false,
    ])
    expect([{ name: 'Ada' }, { name: '' }, { foo: 1 }].map((input) => verdictOf(updateUser, input).valid)).toEqual([
      true,
      false,
      false,
    ])
  })

  test('the state validator agrees with the one compiled at start', () => {
    for (const input of [DEFAULT_FIXTURES, { organizations: [], users: [{}] }, { organizations: [] }]) {
      expect(verdictOf(validateDefaultState, input)).toEqual(verdictOf(runtime.validateState, input))
    }
  })
})
