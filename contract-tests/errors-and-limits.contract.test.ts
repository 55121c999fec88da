import { describe, test } from 'vitest'
import { expectMethodNotAllowed } from './support/expect-allow.js'
import { expectProblem, expectValidationProblem } from './support/expect-problem.js'
import { expectUnauthenticated } from './support/expect-unauthenticated.js'
import { expectRule, needActor, needDisposable, needWrites, send } from './support/suite.js'
import { unknownUserId, userPath } from './support/user-paths.js'

// CONTRACT §4 "Other routes", §3 "the order of checks" and §5. Requests aim at ids that do not exist
// wherever the rule allows it: nothing can change, even on a backend that breaks the rule.

const KIB_16 = 16 * 1024

/** A JSON body of exactly `bytes` bytes: a name far too long, so that it is a 400 if it gets that far. */
function bodyOfSize(bytes: number): string {
  const frame = JSON.stringify({ name: '' }).length
  return JSON.stringify({ name: 'x'.repeat(bytes - frame) })
}

describe.concurrent('routes and methods', () => {
  test('[profile] an unknown route under /api is a 401 without a token: authentication comes first', async () => {
    const exchange = await send({ as: null, path: '/api/nothing' })
    expectUnauthenticated(exchange, false, 'Authentication (401) comes before the route (404) (docs/contract.md §3)')
  })

  test('[profile] an unknown route under /api is a 404 NOT_FOUND', async (context) => {
    needActor(context, 'owner')
    for (const path of ['/api/nothing', '/api/users/me/friends', `${userPath(unknownUserId())}/roles`]) {
      const exchange = await send({ as: 'owner', path })
      expectProblem(exchange, 404, 'NOT_FOUND', 'Any other path under /api answers 404 NOT_FOUND (docs/contract.md §4)')
    }
  })

  test('[profile] POST /api/users is a 405 whose Allow lists GET', async (context) => {
    needActor(context, 'owner')
    // No body: even a backend that creates users on POST has nothing to create.
    const exchange = await send({ as: 'owner', method: 'POST', path: '/api/users' })
    expectProblem(
      exchange,
      405,
      'METHOD_NOT_ALLOWED',
      'Other methods on documented paths are a 405 (docs/contract.md §4)',
    )
    expectMethodNotAllowed(exchange, ['GET'], 'POST /api/users is a 405 with Allow: GET (docs/contract.md §4)')
  })

  for (const method of ['PUT', 'POST']) {
    test(`[profile] ${method} /api/users/{id} is a 405 whose Allow lists GET, PATCH and DELETE`, async (context) => {
      needActor(context, 'owner')
      // An unknown id: the method (405) is checked before existence (404).
      const exchange = await send({ as: 'owner', method, path: userPath(unknownUserId()), json: { name: 'Nobody' } })
      expectProblem(
        exchange,
        405,
        'METHOD_NOT_ALLOWED',
        'Other methods on documented paths are a 405 (docs/contract.md §4)',
      )
      expectMethodNotAllowed(
        exchange,
        ['GET', 'PATCH', 'DELETE'],
        `${method} /api/users/{id} is a 405 (docs/contract.md §4)`,
      )
    })
  }

  test('[profile] a method without a token is a 401: authentication comes before the method', async () => {
    const exchange = await send({ as: null, method: 'POST', path: '/api/users' })
    expectUnauthenticated(exchange, false, 'Authentication (401) comes before the method (405) (docs/contract.md §3)')
  })
})

describe.concurrent('body size', () => {
  test('[profile] a PATCH body over 16 KiB is a 413', async (context) => {
    needWrites(context)
    needActor(context, 'owner')
    // Aimed at a real user, update-user's disposable one; the body's name is invalid anyway.
    const user = needDisposable(context, 'update')
    const exchange = await send({
      as: 'owner',
      method: 'PATCH',
      path: userPath(user.id),
      body: bodyOfSize(KIB_16 + 1),
      headers: JSON_TYPE,
    })
    expectProblem(exchange, 413, 'PAYLOAD_TOO_LARGE', 'A body over 16 KiB is a 413 (docs/contract.md §5)')
  })

  test('[profile] a body of exactly 16 KiB is not a 413', async (context) => {
    needActor(context, 'owner')
    const exchange = await send({
      as: 'owner',
      method: 'PATCH',
      path: userPath(unknownUserId()),
      body: bodyOfSize(KIB_16),
      headers: JSON_TYPE,
    })
    expectValidationProblem(
      exchange,
      'body',
      'Only bodies over 16 KiB are a 413; this one is too long a name: 400 (docs/contract.md §4, §5)',
    )
  })
})

describe.concurrent('the order of checks (docs/contract.md §3)', () => {
  const id = (): string => userPath(unknownUserId())

  test('[profile] the route comes before body size: an oversized body to an unknown route is a 404', async (context) => {
    needActor(context, 'owner')
    const exchange = await send({
      as: 'owner',
      method: 'PATCH',
      path: '/api/nothing',
      body: bodyOfSize(KIB_16 + 1),
      headers: JSON_TYPE,
    })
    expectProblem(
      exchange,
      404,
      'NOT_FOUND',
      'The order of checks: the route (404) before body size (413) (docs/contract.md §3)',
    )
  })

  test('[profile] the method comes before body size: an oversized PUT is a 405', async (context) => {
    needActor(context, 'owner')
    const exchange = await send({
      as: 'owner',
      method: 'PUT',
      path: id(),
      body: bodyOfSize(KIB_16 + 1),
      headers: JSON_TYPE,
    })
    expectProblem(
      exchange,
      405,
      'METHOD_NOT_ALLOWED',
      'The order of checks: the method (405) before body size (413) (docs/contract.md §3)',
    )
  })

  test('[profile] body size comes before content type: an oversized text/plain body is a 413', async (context) => {
    needActor(context, 'owner')
    const exchange = await send({
      as: 'owner',
      method: 'PATCH',
      path: id(),
      body: bodyOfSize(KIB_16 + 1),
      headers: { 'content-type': 'text/plain' },
    })
    expectProblem(exchange, 413, 'PAYLOAD_TOO_LARGE', 'The order of checks: 413 before 415 (docs/contract.md §3)')
  })

  test('[profile] content type comes before validation: an invalid text/plain body is a 415', async (context) => {
    needActor(context, 'owner')
    const exchange = await send({
      as: 'owner',
      method: 'PATCH',
      path: id(),
      body: '{"name":',
      headers: { 'content-type': 'text/plain' },
    })
    expectProblem(exchange, 415, 'UNSUPPORTED_MEDIA_TYPE', 'The order of checks: 415 before 400 (docs/contract.md §3)')
  })

  test('[profile] validation comes before existence: an invalid body for an unknown id is a 400', async (context) => {
    needActor(context, 'owner')
    const exchange = await send({ as: 'owner', method: 'PATCH', path: id(), json: {} })
    expectValidationProblem(exchange, 'body', 'The order of checks: 400 before 404 (docs/contract.md §3)')
  })

  test('[profile] existence comes before permission: a bot reading an unknown id gets a 404', async (context) => {
    needActor(context, 'bot')
    const exchange = await send({ as: 'bot', path: id() })
    expectProblem(exchange, 404, 'USER_NOT_FOUND', 'The order of checks: 404 before 403 (docs/contract.md §3)')
  })
})

describe.concurrent('every error is a problem whose status is the HTTP status (docs/contract.md §5)', () => {
  test('[profile] a 400 is VALIDATION_FAILED with errors', async (context) => {
    needActor(context, 'owner')
    expectValidationProblem(
      await send({ as: 'owner', path: '/api/users?limit=0' }),
      'query',
      'limit=0 is a 400 (docs/contract.md §4)',
      '/limit',
    )
  })

  test('[profile] a 401 is UNAUTHENTICATED', async () => {
    expectProblem(
      await send({ as: null, path: '/api/users' }),
      401,
      'UNAUTHENTICATED',
      'No token is a 401 (docs/contract.md §2)',
    )
  })

  test('[profile] a 403 is FORBIDDEN', async (context) => {
    needActor(context, 'bot')
    expectProblem(
      await send({ as: 'bot', path: '/api/users' }),
      403,
      'FORBIDDEN',
      'A bot may not list (docs/contract.md §3)',
    )
  })

  test('[profile] a 404 for an unknown user is USER_NOT_FOUND', async (context) => {
    needActor(context, 'owner')
    const exchange = await send({ as: 'owner', path: userPath(unknownUserId()) })
    expectProblem(exchange, 404, 'USER_NOT_FOUND', 'An unknown id is a 404 (docs/contract.md §3)')
  })

  test('[profile] a 405 is METHOD_NOT_ALLOWED', async (context) => {
    needActor(context, 'owner')
    expectProblem(
      await send({ as: 'owner', method: 'PUT', path: userPath(unknownUserId()) }),
      405,
      'METHOD_NOT_ALLOWED',
      'PUT is a 405 (docs/contract.md §4)',
    )
  })

  test('[profile] a 415 is UNSUPPORTED_MEDIA_TYPE', async (context) => {
    needActor(context, 'owner')
    const exchange = await send({
      as: 'owner',
      method: 'PATCH',
      path: userPath(unknownUserId()),
      body: '{}',
      headers: { 'content-type': 'text/plain' },
    })
    expectProblem(exchange, 415, 'UNSUPPORTED_MEDIA_TYPE', 'A text/plain body is a 415 (docs/contract.md §4)')
  })

  test('[profile] a malformed body is a 4xx, never a 500, and carries no stack trace', async (context) => {
    needActor(context, 'owner')
    const body = '{"name":\u0000\ud800}'
    const exchange = await send({
      as: 'owner',
      method: 'PATCH',
      path: userPath(unknownUserId()),
      body,
      headers: JSON_TYPE,
    })
    const rule = 'A 500 is never expected, and errors never carry stack traces (docs/contract.md §5)'
    expectRule(exchange, exchange.response.status < 500, rule, `Received: ${exchange.response.status}`)
    expectRule(
      exchange,
      !/\n\s+at .+:\d+:\d+/.test(exchange.response.text),
      rule,
      'Received: a stack trace in the body',
    )
  })
})

const JSON_TYPE = { 'content-type': 'application/json' }
