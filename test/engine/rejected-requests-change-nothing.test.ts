import fc from 'fast-check'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { MockState } from '../../src/domain/mock-state.js'
import { BODY_LIMIT } from '../../src/spec/contract-limits.js'
import { replyToClientError } from '../../src/server/problem-replies.js'
import { createAjv } from '../../src/spec/create-ajv.js'
import { loadSpec } from '../../src/spec/load-spec.js'
import { listOperations, type Operation } from '../../src/spec/operations.js'
import { serverUrl, startMock, type RunningMock } from '../../src/server/start-mock.js'
import type { ApiExchange } from '../support/api-exchange.js'
import { refusalOfBody, sentBody, type SentBody } from '../support/bad-bodies.js'
import { noiseHeaders, refusedCredentials, sendsBearerToken } from '../support/bad-credentials.js'
import { badId, decodedId, mangledPath, MAX_PARAM_LENGTH } from '../support/bad-paths.js'
import { noisePairs, refusedValues, toQueryString, type QueryPairs } from '../support/bad-queries.js'
import { namedUser } from '../support/named-users.js'
import { sendRaw, type RawRequest } from '../support/raw-http.js'
import {
  createRejectionProbe,
  probeCase,
  type Expectation,
  type ProbeCase,
  type RejectionProbe,
} from '../support/rejection-probe.js'

// "Bad input never hurts": every request the mock refuses leaves its state byte-identical, is never a
// 500, and is application/problem+json with a useful detail (CONTRACT §5). Generated bad requests go
// to every operation of the document over real HTTP. FC_SEED and FC_NUM_RUNS run other or longer
// campaigns (FC_REPORT=1 prints the counts); fast-check prints the seed and path of a failure.

const SEED = Number(process.env['FC_SEED'] ?? 20_240_611)
const NUM_RUNS = Number(process.env['FC_NUM_RUNS'] ?? 250)
/** Most generated requests must really be refusals, or the properties prove little. */
const MIN_REJECTED_SHARE = 0.75
/** Each request is two HTTP round trips; shrinking a failure takes many more. */
const PROPERTY_TIMEOUT = 120_000 + NUM_RUNS * 200

interface World {
  mock: RunningMock
  probe: RejectionProbe
  operations: Operation[]
  activeTokens: string[]
  inactiveTokens: string[]
  /** The organization of each token's user. */
  organizationOf: Map<string, string>
  /** Every user id, by organization. */
  idsOf: Map<string, Set<string>>
  /** The ids of the users with a token (the fixtures' and faker's), of every organization. */
  tokenUserIds: string[]
  /** Whether the document's JSON body schema of an operation accepts a value. */
  acceptsBody: Map<string, (value: unknown) => boolean>
}

let world: World

beforeAll(async () => {
  // No disposable users: their random tokens would make the generated requests differ run to run.
  const mock = await startMock({ users: 5, disposable: 0 })
  const { dereferenced } = await loadSpec()
  const operations = listOperations(dereferenced)
  const state = (await (await fetch(`${mock.url}/__mock/state`)).json()) as MockState
  const idsOf = new Map<string, Set<string>>()
  for (const user of state.users) {
    idsOf.set(user.organizationId, (idsOf.get(user.organizationId) ?? new Set()).add(user.id))
  }
  const withTokens = state.users.filter((user) => user.token !== undefined)
  const ajv = createAjv()
  world = {
    mock,
    probe: await createRejectionProbe(mock),
    operations,
    activeTokens: withTokens.filter((user) => user.status === 'ACTIVE').map((user) => user.token as string),
    inactiveTokens: withTokens.filter((user) => user.status !== 'ACTIVE').map((user) => user.token as string),
    organizationOf: new Map(withTokens.map((user) => [user.token as string, user.organizationId])),
    idsOf,
    tokenUserIds: withTokens.map((user) => user.id),
    acceptsBody: new Map(
      operations.flatMap((operation) => {
        const schema = operation.requestBody?.content?.['application/json']?.schema
        if (!schema) return []
        const validate = ajv.compile(schema)
        return [[operation.operationId, (value: unknown) => validate(value)]]
      }),
    ),
  }
})

afterAll(async () => {
  await world?.mock.close()
})

const readsBody = (operation: Operation) => world.acceptsBody.has(operation.operationId)
const readsQuery = (operation: Operation) => operation.parameters.some((parameter) => parameter.in === 'query')
/** PATCH and DELETE operations that can succeed: where a refusal that changed state would show. */
const changesState = (operation: Operation) => operation.succeeds && ['patch', 'delete'].includes(operation.method)
const hasPathParameter = (operation: Operation) => operation.parameters.some((parameter) => parameter.in === 'path')

/** Any operation of the document, those that exercise the property's subject four times as often. */
function anOperation(favoured: (operation: Operation) => boolean = () => false): fc.Arbitrary<Operation> {
  return fc.oneof(
    ...world.operations.map((operation) => ({
      weight: favoured(operation) ? 4 : 1,
      arbitrary: fc.constant(operation),
    })),
  )
}

/** Active tokens (every role, three organizations) reach validation and permissions; inactive ones stop at 401. */
function aToken(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...world.activeTokens) },
    { weight: 1, arbitrary: fc.constantFrom(...world.inactiveTokens) },
  )
}

/** Ids of users of every organization, and two well-formed ones nobody has. */
function anOrdinaryId(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...world.tokenUserIds),
    fc.constantFrom('usr_zzzzzzzzzzzzzzzzzzzz', 'usr_acmeownerqqqqqqqqqqx'),
  )
}

function pathOf(operation: Operation, id: string): string {
  return operation.path.replace(/\{[^}]+\}/, id)
}

/** A request to the operation; a body the document accepts unless one is given. */
function requestTo(
  operation: Operation,
  path: string,
  headers: Record<string, string | string[]>,
  body?: SentBody,
): RawRequest {
  const sent = body ?? (readsBody(operation) ? validBody(path.length) : undefined)
  return {
    method: operation.method.toUpperCase(),
    path,
    headers: { ...headers, ...(sent?.contentType === undefined ? {} : { 'content-type': sent.contentType }) },
    ...(sent === undefined ? {} : { body: sent.bytes, chunked: sent.chunked === true }),
  }
}

/** A body the document accepts, for requests whose subject is not the body; `pick` chooses which. */
function validBody(pick: number): SentBody {
  const patches = [{ name: 'Renamed by a property' }, { role: 'CLIENT_VIEWER' }, { status: 'SUSPENDED' }]
  const patch = patches[pick % patches.length]
  return { bytes: Buffer.from(JSON.stringify(patch)), contentType: 'application/json' }
}

/** CONTRACT §3: authentication first (401), then the method (405 on PATCH/DELETE /api/users/me). */
function beforeTheOperation(operation: Operation, token: string): Expectation | undefined {
  if (!world.activeTokens.includes(token)) return { mustReject: true, status: 401, invalidToken: true }
  if (!operation.succeeds) return { mustReject: true, status: 405 }
  return undefined
}

/** Runs a property over generated cases; accepted requests are skipped, and must stay few. */
async function assertRefusalsChangeNothing(cases: fc.Arbitrary<ProbeCase>): Promise<void> {
  const before = { ...world.probe.counts }
  await fc.assert(
    fc.asyncProperty(cases, async ({ request, expectation }) => {
      fc.pre(await world.probe.check(request, expectation))
    }),
    { seed: SEED, numRuns: NUM_RUNS },
  )
  const rejected = world.probe.counts.rejected - before.rejected
  const accepted = world.probe.counts.accepted - before.accepted
  if (process.env['FC_REPORT']) console.info(`seed ${SEED}: ${rejected} refused, ${accepted} accepted (skipped)`)
  expect(rejected).toBeGreaterThanOrEqual(NUM_RUNS)
  expect(rejected / (rejected + accepted)).toBeGreaterThanOrEqual(MIN_REJECTED_SHARE)
}

describe('a refused request changes nothing and answers a useful problem', () => {
  test(
    'bad bodies: wrong types, unknown and __proto__ keys, deep nesting, odd and invalid text, sizes, content types',
    async () => {
      const cases = fc
        .record({ operation: anOperation(readsBody), token: aToken(), id: anOrdinaryId(), body: sentBody })
        .map(({ operation, token, id, body }) => {
          const accepts = world.acceptsBody.get(operation.operationId)
          // CONTRACT §5: over 16 KiB is a 413 on every route; other routes ignore what a body holds.
          const refusal = accepts ? refusalOfBody(body, accepts) : body.bytes.length > BODY_LIMIT ? 413 : undefined
          const expectation = beforeTheOperation(operation, token) ?? {
            mustReject: refusal !== undefined,
            ...(refusal === undefined ? {} : { status: refusal }),
          }
          return probeCase(requestTo(operation, pathOf(operation, id), bearer(token), body), expectation)
        })
      await assertRefusalsChangeNothing(cases)
    },
    PROPERTY_TIMEOUT,
  )

  test(
    'bad query strings: values out of range or of the wrong type, duplicates, __proto__ and deep brackets, invalid UTF-8',
    async () => {
      const parameters = world.operations.flatMap((operation) =>
        operation.parameters.filter((parameter) => parameter.in === 'query'),
      )
      const refused: fc.Arbitrary<QueryPairs> = fc
        .subarray(parameters, { minLength: 1 })
        .chain((chosen) => fc.tuple(...chosen.map(refusedValues)))
        .map((lists) => lists.flat())
      const pairs = fc
        .tuple(refused, noisePairs(parameters.map((parameter) => parameter.name)))
        .chain(([poison, noise]) =>
          fc.shuffledSubarray([...poison, ...noise], { minLength: poison.length + noise.length }),
        )
      const cases = fc
        .record({ operation: anOperation(readsQuery), token: aToken(), id: anOrdinaryId(), pairs })
        .map(({ operation, token, id, pairs }) => {
          // CONTRACT §4: unknown query parameters are ignored: only an operation with query parameters must refuse.
          const expectation = beforeTheOperation(operation, token) ?? {
            mustReject: readsQuery(operation),
            ...(readsQuery(operation) ? { status: 400 } : {}),
          }
          return probeCase(
            requestTo(operation, `${pathOf(operation, id)}${toQueryString(pairs)}`, bearer(token)),
            expectation,
          )
        })
      await assertRefusalsChangeNothing(cases)
    },
    PROPERTY_TIMEOUT,
  )

  test(
    'bad paths: unknown, foreign, odd, over-long and undecodable ids, and routes the API does not have',
    async () => {
      const badIds = fc
        .record({
          operation: fc.constantFrom(...world.operations.filter(hasPathParameter)),
          token: aToken(),
          id: badId(world.tokenUserIds),
        })
        .map(({ operation, token, id }) =>
          probeCase(requestTo(operation, pathOf(operation, id), bearer(token)), expectationOfId(operation, token, id)),
        )
      // CONTRACT §4: another spelling of a route is no route (404, or 400 when it does not decode).
      const badRoutes = fc
        .record({ operation: anOperation(), token: aToken(), id: anOrdinaryId() })
        .chain(({ operation, token, id }) =>
          mangledPath(pathOf(operation, id)).map((path) =>
            probeCase(requestTo(operation, path, bearer(token)), { mustReject: true, byStatus: true }),
          ),
        )
      await assertRefusalsChangeNothing(fc.oneof({ weight: 3, arbitrary: badIds }, { weight: 1, arbitrary: badRoutes }))
    },
    PROPERTY_TIMEOUT,
  )

  test(
    'well-formed requests the permission table, the state rule or another organization refuses',
    async () => {
      // Every patch the document accepts that CONTRACT §3 may refuse: a role or status (403 for viewers, bots,
      // oneself; CLIENT_OWNER from an admin), a status of an INVITED user (409), a name on someone else.
      const patches = [
        { name: 'Renamed by a property' },
        { role: 'CLIENT_OWNER' },
        { role: 'CLIENT_ADMIN', status: 'SUSPENDED' },
        { status: 'ACTIVE' },
        { status: 'SUSPENDED' },
      ]
      const cases = fc
        .record({
          operation: fc.constantFrom(...world.operations.filter(changesState)),
          token: fc.constantFrom(...world.activeTokens),
          id: fc.constantFrom(...world.tokenUserIds),
          patch: fc.constantFrom(...patches),
        })
        .map(({ operation, token, id, patch }) => {
          const body = { bytes: Buffer.from(JSON.stringify(patch)), contentType: 'application/json' }
          const foreign =
            hasPathParameter(operation) && !world.idsOf.get(world.organizationOf.get(token) ?? '')?.has(id)
          // CONTRACT §3: another organization's user is a 404 for every caller; the rest the table decides.
          const expectation = foreign ? { mustReject: true, status: 404 } : { mustReject: false }
          return probeCase(requestTo(operation, pathOf(operation, id), bearer(token), body), expectation)
        })
      await assertRefusalsChangeNothing(cases)
    },
    PROPERTY_TIMEOUT,
  )

  test(
    'bad credentials: missing, other schemes, empty, unknown, inactive, repeated; with noise headers and bodies',
    async () => {
      const cases = fc
        .record({
          operation: anOperation(),
          credentials: refusedCredentials(world.activeTokens, world.inactiveTokens),
          id: anOrdinaryId(),
          noise: noiseHeaders,
          body: fc.option(sentBody, { nil: undefined }),
        })
        .map(({ operation, credentials, id, noise, body }) => {
          const headers = { ...noise, ...(credentials === undefined ? {} : { authorization: credentials }) }
          // CONTRACT §2, §3: authentication comes first, whatever else is wrong with the request.
          const expectation = { mustReject: true, status: 401, invalidToken: sendsBearerToken(credentials) }
          return probeCase(requestTo(operation, pathOf(operation, id), headers, body), expectation)
        })
      await assertRefusalsChangeNothing(cases)
    },
    PROPERTY_TIMEOUT,
  )
})

function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` }
}

/**
 * CONTRACT §3, §4: an id that is no user of the caller's organization is refused; a well-formed one
 * with a 404 (after the 401 of an inactive token). An id that does not decode, or is too long to
 * route, is refused before authentication (400): refused, status not pinned.
 */
function expectationOfId(operation: Operation, token: string, id: string): Expectation {
  const decoded = decodedId(id)
  // `/api/users/%6De` is `/api/users/me` (RFC 3986 §6.2.2.2): either answer is right.
  if (decoded === 'me') return { mustReject: false, byStatus: true }
  const routable = decoded !== undefined && id.length <= MAX_PARAM_LENGTH
  const before = beforeTheOperation(operation, token)
  if (before) return routable ? before : { mustReject: true }
  const organization = world.organizationOf.get(token) ?? ''
  if (decoded !== undefined && world.idsOf.get(organization)?.has(decoded)) return { mustReject: false }
  return { mustReject: true, ...(routable ? { status: 404 } : {}) }
}

describe('what the properties found, pinned', () => {
  test('a page of 309 digits or more is a 400, not a 200 whose meta.page is null', async () => {
    const request = requestTo(listOperation(), `/api/users?page=${'9'.repeat(400)}`, bearer('owner-token'))
    expect(await world.probe.check(request, { mustReject: true, status: 400 })).toBe(true)
  })

  test('an id too long to route is a 400 about the path, with a short detail', async () => {
    const path = `/api/users/usr_${'q'.repeat(5000)}`
    const answer = await sendRaw(world.mock.url, { method: 'GET', path, headers: bearer('owner-token') })
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ in: 'path' }] })
    expect((answer.body as { detail: string }).detail.length).toBeLessThan(200)
  })

  test('a DELETE with a Content-Type that does not parse is answered as without one, not 415', async () => {
    const request = {
      method: 'DELETE',
      path: '/api/users/usr_zzzzzzzzzzzzzzzzzzzz',
      headers: { ...bearer('owner-token'), 'content-type': 'json' },
      body: Buffer.from('{}'),
    }
    expect(await world.probe.check(request, { mustReject: true, status: 404 })).toBe(true)
  })

  test('a body over 16 KiB is a 413 whatever its Content-Type (CONTRACT §3: size before type)', async () => {
    const request = {
      method: 'PATCH',
      path: `/api/users/${namedUser('viewer-token').id}`,
      headers: { ...bearer('owner-token'), 'content-type': 'json' },
      body: Buffer.from(`{"name":"${'x'.repeat(BODY_LIMIT)}"}`),
    }
    expect(await world.probe.check(request, { mustReject: true, status: 413 })).toBe(true)
  })
})

describe('requests node refuses before Fastify sees them (CONTRACT §5: every error is a problem)', () => {
  // Fastify answers these itself, as plain JSON (400, 431), unless build-app.ts passes
  // `clientErrorHandler: replyToClientError` to Fastify().
  test('a byte over 0x7F in the request line is a problem+json 400', async () => {
    const answer = await sendRaw(world.mock.url, { method: 'GET', path: '/api/users/\u00ff', headers: {} })
    expectClientErrorProblem(answer)
  })

  test('headers over 16 KiB are a problem+json 400', async () => {
    const headers = { ...bearer('owner-token'), 'x-padding': 'x'.repeat(17 * 1024) }
    const answer = await sendRaw(world.mock.url, { method: 'GET', path: '/api/users/me', headers })
    expectClientErrorProblem(answer)
  })

  test("replyToClientError answers a problem+json 400 where Fastify's default answers plain JSON", async () => {
    const app = Fastify({ clientErrorHandler: replyToClientError })
    app.get('/', async () => 'ok')
    await app.listen({ port: 0, host: '127.0.0.1' })
    try {
      const url = serverUrl(app)
      expectClientErrorProblem(await sendRaw(url, { method: 'GET', path: '/\u00ff', headers: {} }))
      const big = await sendRaw(url, { method: 'GET', path: '/', headers: { 'x-padding': 'x'.repeat(17 * 1024) } })
      expectClientErrorProblem(big)
      expect(big.body).toMatchObject({ errors: [{ in: 'header' }] })
    } finally {
      await app.close()
    }
  })
})

function listOperation(): Operation {
  const operation = world.operations.find((candidate) => candidate.operationId === 'listUsers')
  if (!operation) throw new Error('The document has no listUsers.')
  return operation
}

function expectClientErrorProblem(answer: ApiExchange): void {
  expect(answer.status).toBe(400)
  expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/)
  expect(answer.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', detail: expect.stringMatching(/\S/) })
}
