import type { ValidateFunction } from 'ajv/dist/2020.js'
import fc from 'fast-check'
import type { RunningMock } from '../../src/server/start-mock.js'
import { createAjv } from '../../src/spec/create-ajv.js'
import { loadSpec } from '../../src/spec/load-spec.js'
import type { ApiExchange } from './api-exchange.js'
import { sendRaw, type RawRequest } from './raw-http.js'
import { assertConforms, SHARED_RESPONSES } from './response-conformance.js'

/** What the contract says of one generated request, as far as the test can know it. */
export interface Expectation {
  /** The contract refuses the request: a 2xx fails the property instead of being skipped. */
  mustReject: boolean
  /** The exact status of CONTRACT §3's order, where the test knows it. */
  status?: number
  /** For a 401: whether `WWW-Authenticate` must carry `error="invalid_token"` (CONTRACT §2). */
  invalidToken?: boolean
  /**
   * Check the answer against the shared response of its status, not the operation's: the server and
   * the conformance helper (a WHATWG URL parser) read this URL as different routes
   * (`/api/users/./me` is no route; `/api/users/%6De` is `/api/users/me`).
   */
  byStatus?: boolean
}

/** A generated request and what the contract says of it. */
export interface ProbeCase {
  request: RawRequest
  expectation: Expectation
}

export interface RejectionProbe {
  /**
   * Sends the request and checks a rejection: never a 500, `application/problem+json` that
   * validates against the document's Problem schema and the operation's documented response, a
   * non-empty `detail`, and `GET /__mock/state` byte-identical to before. Returns false for an
   * accepted request (after resetting the mock, since an accepted PATCH or DELETE changes state).
   */
  check(request: RawRequest, expectation: Expectation): Promise<boolean>
  /** Requests refused and accepted so far. */
  readonly counts: { rejected: number; accepted: number }
}

/** Builds a probe on a running mock; the mock's current state is the one every rejection must keep. */
export async function createRejectionProbe(mock: RunningMock): Promise<RejectionProbe> {
  const validateProblem = await compileProblemSchema()
  const readState = async () => (await sendRaw(mock.url, { method: 'GET', path: '/__mock/state', headers: {} })).text
  const prototypes = snapshotPrototypes()
  const counts = { rejected: 0, accepted: 0 }
  let known = await readState()

  return {
    counts,
    async check(request, expectation) {
      const exchange = await sendRaw(mock.url, request)
      const before = known
      const after = await readState()
      // Back to the known state before anything is judged, so that the next run (or a shrink) starts clean.
      if (after !== before) {
        await mock.reset()
        known = await readState()
      }
      const where = describeExchange(request, exchange)
      if (exchange.status >= 200 && exchange.status < 300) {
        if (expectation.mustReject)
          throw new Error(`The contract refuses this request; the mock accepted it.\n${where}`)
        await assertConforms(exchange)
        counts.accepted += 1
        return false
      }
      counts.rejected += 1
      if (after !== before) {
        throw new Error(`A refused request changed the state (${firstDifference(before, after)}).\n${where}`)
      }
      assertRejection(exchange, expectation, validateProblem, where)
      const documented = expectation.byStatus
        ? assertConforms(exchange, {
            conformTo: SHARED_RESPONSES[exchange.status] ?? `the response of ${exchange.status}`,
          })
        : assertConforms(exchange)
      await documented.catch((error: Error) => {
        throw new Error(`${error.message}\n${where}`)
      })
      if (snapshotPrototypes() !== prototypes) {
        throw new Error(`A request polluted Object.prototype or Array.prototype.\n${where}`)
      }
      return true
    },
  }
}

function assertRejection(
  exchange: ApiExchange,
  expectation: Expectation,
  validateProblem: ValidateFunction,
  where: string,
): void {
  const fail = (rule: string): never => {
    throw new Error(`${rule}\n${where}`)
  }
  // CONTRACT §5: 500 is never expected. The generated requests ask for no simulated 5xx.
  if (exchange.status < 400 || exchange.status >= 500) fail(`Expected a 4xx, received ${exchange.status}.`)
  if (expectation.status !== undefined && exchange.status !== expectation.status) {
    fail(`Expected ${expectation.status} (CONTRACT §3's order), received ${exchange.status}.`)
  }
  const mediaType = exchange.headers['content-type']?.split(';')[0]?.trim()
  if (mediaType !== 'application/problem+json') fail(`Expected application/problem+json, received ${mediaType}.`)
  if (!validateProblem(exchange.body)) fail(`The body is no Problem: ${JSON.stringify(validateProblem.errors)}`)
  const problem = exchange.body as { status: number; detail: string }
  if (problem.status !== exchange.status) fail(`The problem's status ${problem.status} is not the HTTP status.`)
  if (problem.detail.trim() === '') fail('The problem has an empty detail.')
  if (expectation.invalidToken !== undefined) {
    const expected = expectation.invalidToken ? 'Bearer error="invalid_token"' : 'Bearer'
    if (exchange.headers['www-authenticate'] !== expected) {
      fail(`Expected WWW-Authenticate: ${expected}, received ${exchange.headers['www-authenticate']}.`)
    }
  }
}

async function compileProblemSchema(): Promise<ValidateFunction> {
  const { dereferenced } = await loadSpec()
  const schema = dereferenced.components?.schemas?.['Problem']
  if (!schema) throw new Error('The document has no components.schemas.Problem.')
  return createAjv().compile(schema)
}

/** The own property names of the prototypes a parser could pollute. */
function snapshotPrototypes(): string {
  return [Object.prototype, Array.prototype].map((prototype) => Object.getOwnPropertyNames(prototype).join()).join('|')
}

function firstDifference(before: string, after: string): string {
  let index = 0
  while (index < before.length && before[index] === after[index]) index += 1
  return `first difference at character ${index}: ${JSON.stringify(before.slice(index, index + 80))} became ${JSON.stringify(after.slice(index, index + 80))}`
}

/** A case with the short description fast-check prints for a counterexample (not a 16 KiB body). */
export function probeCase(request: RawRequest, expectation: Expectation): ProbeCase {
  return Object.defineProperty({ request, expectation }, fc.toStringMethod, {
    value: () => `${describeRequest(request)}\n  expected: ${JSON.stringify(expectation)}`,
  })
}

export function describeRequest(request: RawRequest): string {
  const clip = (text: string, length: number) =>
    text.length > length ? `${text.slice(0, length)}… (${text.length} chars)` : text
  const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${clip(JSON.stringify(value), 200)}`)
  const body =
    request.body === undefined
      ? '(no body)'
      : `${request.body.length} bytes${request.chunked ? ', chunked' : ''}: ${clip(JSON.stringify(request.body.toString('latin1')), 300)}`
  return [`${request.method} ${clip(request.path, 300)}`, ...headers, body].join('\n  ')
}

function describeExchange(request: RawRequest, exchange: ApiExchange): string {
  const text = exchange.text.length > 500 ? `${exchange.text.slice(0, 500)}…` : exchange.text
  return `Request: ${describeRequest(request)}\nReceived: ${exchange.status} ${exchange.headers['content-type'] ?? ''}\n${text}`
}
