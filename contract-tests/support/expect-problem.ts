import { mediaTypeOf, type Exchange } from '../../src/contract/client/exchange.js'
import { expectRule, expectStatus } from './suite.js'

interface ProblemBody {
  status?: unknown
  code?: unknown
  title?: unknown
  detail?: unknown
  errors?: unknown
}

/**
 * The answer is the documented problem (CONTRACT §5): that status, `application/problem+json` whose
 * `status` is the HTTP status, that `code`, a title and a detail, and `errors` on a 400 only.
 */
export function expectProblem(exchange: Exchange, status: number, code: string, rule: string): void {
  expectStatus(exchange, status, rule)
  const { response } = exchange
  const problem = (response.body ?? {}) as ProblemBody
  const shape = 'Every error is application/problem+json (docs/contract.md §5)'
  const mediaType = mediaTypeOf(response)
  expectRule(exchange, mediaType === 'application/problem+json', shape, `Received: ${mediaType ?? 'no Content-Type'}`)
  expectRule(exchange, problem.status === status, shape, `Received: status ${JSON.stringify(problem.status)}`)
  expectRule(
    exchange,
    problem.code === code,
    `A ${status} here is ${code} (docs/contract.md §5)`,
    received(problem.code),
  )
  for (const key of ['title', 'detail'] as const) {
    const text = problem[key]
    expectRule(exchange, typeof text === 'string' && text !== '', shape, `Received: ${key} ${JSON.stringify(text)}`)
  }
  const hasErrors = Array.isArray(problem.errors) && problem.errors.length > 0
  expectRule(
    exchange,
    status === 400 ? hasErrors : problem.errors === undefined,
    '`errors` is present on a 400 only (docs/contract.md §5)',
    `Received: errors ${JSON.stringify(problem.errors)}`,
  )
}

/**
 * A 400 whose `errors` say where the problem is: an entry `in` that part, and at that JSON pointer
 * when one is given (`/limit` for the query parameter `limit`).
 */
export function expectValidationProblem(
  exchange: Exchange,
  where: 'body' | 'query' | 'path',
  rule: string,
  pointer?: string,
): void {
  expectProblem(exchange, 400, 'VALIDATION_FAILED', rule)
  const errors = (exchange.response.body as { errors: Array<{ in?: unknown; path?: unknown }> }).errors
  const found = errors.some((error) => error.in === where && (pointer === undefined || error.path === pointer))
  const expected = `an entry in "${where}"${pointer === undefined ? '' : ` at "${pointer}"`}`
  expectRule(
    exchange,
    found,
    'A 400 says where the problem is (docs/contract.md §5)',
    `Received: errors ${JSON.stringify(errors)}\nExpected: ${expected}`,
  )
}

function received(value: unknown): string {
  return `Received: ${JSON.stringify(value)}`
}
