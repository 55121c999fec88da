import { describe, expect, test } from 'vitest'
import { MAX_NAME_LENGTH, checkUserName } from '../../src/domain/user-name.js'
import { UserStore } from '../../src/domain/user-store.js'
import type { User } from '../../src/domain/user.js'
import { createEngine } from '../../src/engine/handle-request.js'
import { toAppError, toProblem, toProblemResponse } from '../../src/engine/problems.js'
import { readBearerToken } from '../../src/engine/bearer-token.js'
import { readJsonBody } from '../../src/engine/read-json-body.js'
import { createRouter } from '../../src/engine/route-request.js'
import { decodeSegments } from '../../src/spec/path-templates.js'
import { invalid } from '../../src/engine/validation-issues.js'
import { AppError, isAppError } from '../../src/errors.js'
import { DEFAULT_OPERATIONS } from '../../src/spec/default-operations.js'

// What the contract suite cannot see of the engine and the domain: the guards no request to the kit's document
// reaches (a document of one's own, `--spec`, with an operation the mock cannot answer, a laxer name pattern or
// its paths in another order; errors the engine did not raise itself), and the mock's own choices where
// docs/contract.md is silent or asks only for a non-empty detail. The mutation run (stryker.config.mjs) runs
// this file beside the suite.

const NOW = '2026-01-01T00:00:00.000Z'

function user(fields: Partial<User> & Pick<User, 'id' | 'role'>): User {
  return {
    name: 'Ada Lovelace',
    email: `${fields.id}@example.test`,
    organizationId: 'org_a',
    status: 'ACTIVE',
    createdAt: NOW,
    updatedAt: NOW,
    ...fields,
  }
}

function thrownBy(run: () => unknown): AppError {
  try {
    run()
  } catch (error) {
    if (isAppError(error)) return error
    throw error
  }
  throw new Error('nothing was thrown')
}

describe('a document of one’s own', () => {
  test('an operation without a handler stops the engine from being made, and is named', () => {
    const first = DEFAULT_OPERATIONS.find((operation) => operation.succeeds)!
    const unknown = ['exportUsers', 'importUsers'].map((operationId) => ({ ...first, operationId }))
    expect(() =>
      createEngine({ operations: [...DEFAULT_OPERATIONS, ...unknown], store: () => undefined as never }),
    ).toThrow(/No handler for operation\(s\) exportUsers, importUsers of the document/)
    expect(() => createEngine({ operations: DEFAULT_OPERATIONS, store: () => undefined as never })).not.toThrow()
  })

  test('a name the document lets through is still held to CONTRACT §1 (1 to 100 characters once trimmed)', () => {
    expect(checkUserName('  Ada  ')).toEqual({ trimmed: 'Ada' })
    expect(checkUserName('x')).toEqual({ trimmed: 'x' })
    expect(checkUserName('x'.repeat(MAX_NAME_LENGTH))).toEqual({ trimmed: 'x'.repeat(MAX_NAME_LENGTH) })
    expect(checkUserName('😀'.repeat(MAX_NAME_LENGTH)).problem).toBeUndefined()
    expect(checkUserName('   ').problem).toMatch(/1 to 100 characters/)
    expect(checkUserName('x'.repeat(MAX_NAME_LENGTH + 1)).problem).toMatch(/it has 101/)
  })

  test('with a document whose schema lets any name through, a bad name is still a 400, and before the 404', async () => {
    const laxer = DEFAULT_OPERATIONS.map((operation) =>
      operation.operationId === 'updateUser'
        ? { ...operation, validate: { ...operation.validate, body: Object.assign(() => true, { errors: null }) } }
        : operation,
    )
    const owner = user({ id: 'usr_owner', role: 'CLIENT_OWNER' })
    const store = new UserStore(
      { organizations: [{ id: 'org_a', name: 'A' }], users: [{ ...owner, token: 'owner-token' }] },
      () => new Date(NOW),
    )
    const engine = createEngine({ operations: laxer, store: () => store })
    const patch = async (id: string, name: string) => {
      const answer = await engine({
        method: 'PATCH',
        url: `/api/users/${id}`,
        headers: { authorization: 'Bearer owner-token', 'content-type': 'application/json' },
        body: new TextEncoder().encode(JSON.stringify({ name })),
      })
      return { status: answer.status, body: JSON.parse(answer.body as string) as Record<string, unknown> }
    }
    for (const name of [' \t ', 'x'.repeat(MAX_NAME_LENGTH + 1)]) {
      for (const id of [owner.id, 'usr_nobody']) {
        const { status, body } = await patch(id, name)
        expect(status).toBe(400)
        expect(body['errors']).toEqual([{ in: 'body', path: '/name', message: expect.stringMatching(/characters/) }])
      }
    }
    const strict = createEngine({ operations: DEFAULT_OPERATIONS, store: () => store })
    const blank = await strict({
      method: 'PATCH',
      url: `/api/users/${owner.id}`,
      headers: { authorization: 'Bearer owner-token', 'content-type': 'application/json' },
      body: new TextEncoder().encode('{"name":"   "}'),
    })
    // The document's pattern refuses it first: one issue, not the same one twice.
    expect(JSON.parse(blank.body as string).errors).toEqual([
      { in: 'body', path: '/name', message: expect.any(String) },
    ])
    const renamed = await patch(owner.id, '  Ada King ')
    expect(renamed.status).toBe(200)
    expect((renamed.body['data'] as User).name).toBe('Ada King')
  })
})

describe('the Authorization header, read', () => {
  test('spaces and tabs around the token go, however many; other white space stays (CONTRACT §2)', () => {
    expect(readBearerToken('Bearer owner-token \t \t')).toEqual({ kind: 'token', token: 'owner-token' })
    expect(readBearerToken(' \t bearer \t  owner-token')).toEqual({ kind: 'token', token: 'owner-token' })
    expect(readBearerToken('Bearer owner-token\u00a0')).toEqual({ kind: 'token', token: 'owner-token\u00a0' })
    expect(readBearerToken('Bearer \t ')).toEqual({ kind: 'empty' })
    expect(readBearerToken('Basic b3duZXI=')).toEqual({ kind: 'not-bearer' })
    expect(readBearerToken(undefined)).toEqual({ kind: 'missing' })
  })
})

describe('the router', () => {
  test('a literal segment wins over a parameter whatever the order of the document', () => {
    const reversed = [...DEFAULT_OPERATIONS].reverse()
    for (const operations of [DEFAULT_OPERATIONS, reversed]) {
      const route = createRouter(operations)
      expect(route('GET', decodeSegments('/api/users/me')).operation.operationId).toBe('getCurrentUser')
      expect(route('GET', decodeSegments('/api/users/usr_1')).operation.operationId).toBe('getUser')
      expect(route('GET', decodeSegments('/api/users')).operation.operationId).toBe('listUsers')
    }
  })
})

describe('the body of a PATCH, read', () => {
  const json = { 'content-type': 'application/json' }
  const bytes = (text: string): Uint8Array => new TextEncoder().encode(text)

  test('an empty Content-Encoding is no encoding (the contract is silent; the mock reads the body)', () => {
    for (const encoding of ['', ' ', 'identity', 'IDENTITY']) {
      expect(readJsonBody({ ...json, 'content-encoding': encoding }, bytes('{"name":"Ada"}'))).toEqual({ name: 'Ada' })
    }
    expect(thrownBy(() => readJsonBody({ ...json, 'content-encoding': 'gzip' }, bytes('{}'))).code).toBe(
      'UNSUPPORTED_MEDIA_TYPE',
    )
  })

  test('each refusal says what is wrong with the bytes, at the whole body', () => {
    const cases: [Uint8Array | undefined, RegExp][] = [
      [undefined, /the body is empty/],
      [new Uint8Array(0), /the body is empty/],
      [new Uint8Array([0x7b, 0xff, 0x7d]), /not valid UTF-8/],
      [bytes('{"name":'), /not valid JSON/],
    ]
    for (const [body, detail] of cases) {
      const error = thrownBy(() => readJsonBody(json, body))
      expect(error.code).toBe('VALIDATION_FAILED')
      expect(error.message).toMatch(detail)
      expect(error.details.errors).toEqual([{ in: 'body', path: '', message: expect.stringMatching(detail) }])
    }
  })

  test('a 400 about one part of the request lists that part, its place and what is wrong', () => {
    expect(invalid('query', '/page', 'must be >= 1').details.errors).toEqual([
      { in: 'query', path: '/page', message: 'must be >= 1' },
    ])
  })
})

describe('errors the engine did not raise itself', () => {
  test('anything thrown that is not an AppError is INTERNAL, its cause kept for the log', () => {
    const cause = new TypeError('boom')
    const error = toAppError(cause)
    expect(error.code).toBe('INTERNAL')
    expect(error.details.cause).toBe(cause)
    const raised = new AppError('NOT_FOUND', 'No such thing.')
    expect(toAppError(raised)).toBe(raised)
  })

  test('a 400 raised without issues lists one for the whole body, with its detail', () => {
    expect(toProblem(new AppError('VALIDATION_FAILED', 'The body is wrong.')).errors).toEqual([
      { in: 'body', path: '', message: 'The body is wrong.' },
    ])
    expect(toProblem(new AppError('VALIDATION_FAILED', 'x', { errors: [] })).errors).toHaveLength(1)
  })

  test('a 405 raised without methods has an empty Allow (RFC 9110 §10.2.1: the resource allows none)', () => {
    expect(toProblemResponse(new AppError('METHOD_NOT_ALLOWED', 'No.')).headers['allow']).toBe('')
  })
})
