import { describe } from 'vitest'
import { BODY_LIMIT, bodyOfSize } from './support/body-of-size.js'
import { expectMethodNotAllowed } from './support/expect-allow.js'
import { expectProblem, expectValidationProblem } from './support/expect-problem.js'
import { expectUnauthenticated } from './support/expect-unauthenticated.js'
import { expectRule, needActor, needDisposable, needWrites, send, test } from './support/suite.js'
import { unknownUserId, userPath } from './support/user-paths.js'
import { covers } from './support/covers.js'
import { reasonPhrasesOf } from '../src/http/reason-phrases.js'

// CONTRACT §4 "Other routes", §3 "the order of checks" and §5. Requests aim at ids that do not exist
// wherever the rule allows it: nothing can change, even on a backend that breaks the rule.

describe.concurrent('routes and methods', () => {
  test(
    '[profile] an unknown route under /api is a 401 without a token: authentication comes first',
    covers('§3.order', '§3.order.401-before-route', '§4.other.404'),
    async () => {
      const exchange = await send({ as: null, path: '/api/nothing' })
      expectUnauthenticated(exchange, false, 'Authentication (401) comes before the route (404) (docs/contract.md §3)')
    },
  )

  test(
    '[profile] an unknown route under /api is a 404 NOT_FOUND',
    covers('§4.other.404', '§5.codes'),
    async (context) => {
      needActor(context, 'owner')
      for (const path of ['/api/nothing', '/api/users/me/friends', `${userPath(unknownUserId())}/roles`]) {
        const exchange = await send({ as: 'owner', path })
        expectProblem(
          exchange,
          404,
          'NOT_FOUND',
          'Any other path under /api answers 404 NOT_FOUND (docs/contract.md §4)',
        )
      }
    },
  )

  test('[profile] POST /api/users is a 405 whose Allow lists GET', covers('§4.other.405'), async (context) => {
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
    test(
      `[profile] ${method} /api/users/{id} is a 405 whose Allow lists GET, PATCH and DELETE`,
      covers('§4.other.405'),
      async (context) => {
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
      },
    )
  }

  test(
    '[profile] a method without a token is a 401: authentication comes before the method',
    covers('§3.order', '§3.order.401-before-route'),
    async () => {
      const exchange = await send({ as: null, method: 'POST', path: '/api/users' })
      expectUnauthenticated(exchange, false, 'Authentication (401) comes before the method (405) (docs/contract.md §3)')
    },
  )
})

describe.concurrent('HEAD (docs/contract.md §4)', () => {
  test('[profile] HEAD gets the answer GET would get, without the body', covers('§4.other.head'), async (context) => {
    needActor(context, 'owner')
    const requests = [
      { as: 'owner', path: '/api/users/me', status: 200 },
      { as: 'owner', path: '/api/users?limit=0', status: 400 },
      { as: 'owner', path: userPath(unknownUserId()), status: 404 },
      { as: null, path: '/api/users', status: 401 },
    ] as const
    for (const { as, path, status } of requests) {
      const [get, head] = await Promise.all([send({ as, path }), send({ as, method: 'HEAD', path })])
      const rule = 'HEAD gets the answer GET would get, without the body (docs/contract.md §4)'
      const show = `Received: HEAD ${head.response.status} ${head.response.headers['content-type']} with ${head.response.text.length} characters\nGET:      ${get.response.status} ${get.response.headers['content-type']}`
      const sameType = head.response.headers['content-type'] === get.response.headers['content-type']
      expectRule(head, get.response.status === status && head.response.status === status && sameType, rule, show)
      expectRule(head, head.response.text === '', rule, show)
    }
  })
})

describe.concurrent('body size', () => {
  test('[profile] a PATCH body over 16 KiB is a 413', covers('§4.bodies.413', '§5.codes'), async (context) => {
    needWrites(context)
    needActor(context, 'owner')
    // Aimed at a real user, update-user's disposable one; the body's name is invalid anyway.
    const user = needDisposable(context, 'update')
    const exchange = await send({
      as: 'owner',
      method: 'PATCH',
      path: userPath(user.id),
      body: bodyOfSize(BODY_LIMIT + 1),
      headers: JSON_TYPE,
    })
    expectProblem(exchange, 413, 'PAYLOAD_TOO_LARGE', 'A body over 16 KiB is a 413 (docs/contract.md §5)')
  })

  test('[profile] a body of exactly 16 KiB is not a 413', covers('§4.bodies.413'), async (context) => {
    needActor(context, 'owner')
    const exchange = await send({
      as: 'owner',
      method: 'PATCH',
      path: userPath(unknownUserId()),
      body: bodyOfSize(BODY_LIMIT),
      headers: JSON_TYPE,
    })
    expectValidationProblem(
      exchange,
      'body',
      'Only bodies over 16 KiB are a 413; this one is too long a name: 400 (docs/contract.md §4, §5)',
    )
  })
})

describe.concurrent('bodies where the operation reads none (docs/contract.md §4)', () => {
  test(
    '[profile] a small body is ignored with its Content-Type and Content-Encoding: DELETE of an unknown id is still a 404',
    covers('§4.bodies.ignored'),
    async (context) => {
      needActor(context, 'viewer')
      const headers = { 'content-type': 'text/plain', 'content-encoding': 'gzip' }
      const path = userPath(unknownUserId())
      const exchange = await send({ as: 'viewer', method: 'DELETE', path, body: 'not json', headers })
      expectProblem(
        exchange,
        404,
        'USER_NOT_FOUND',
        'A body DELETE does not read is ignored, whatever its type (docs/contract.md §4)',
      )
    },
  )

  test(
    '[profile] a DELETE body over 16 KiB is a 413, whatever its media type',
    covers('§4.bodies.413'),
    async (context) => {
      needActor(context, 'viewer')
      const exchange = await send({
        as: 'viewer',
        method: 'DELETE',
        path: userPath(unknownUserId()),
        body: bodyOfSize(BODY_LIMIT + 1),
        headers: { 'content-type': 'application/octet-stream' },
      })
      expectProblem(
        exchange,
        413,
        'PAYLOAD_TOO_LARGE',
        'A body over 16 KiB is a 413 on every route, DELETE included (docs/contract.md §4)',
      )
    },
  )
})

describe.concurrent('the order of checks (docs/contract.md §3)', () => {
  const id = (): string => userPath(unknownUserId())

  test(
    '[profile] the route comes before body size: an oversized body to an unknown route is a 404',
    covers('§3.order', '§3.order.route-before-413'),
    async (context) => {
      needActor(context, 'owner')
      const exchange = await send({
        as: 'owner',
        method: 'PATCH',
        path: '/api/nothing',
        body: bodyOfSize(BODY_LIMIT + 1),
        headers: JSON_TYPE,
      })
      expectProblem(
        exchange,
        404,
        'NOT_FOUND',
        'The order of checks: the route (404) before body size (413) (docs/contract.md §3)',
      )
    },
  )

  test(
    '[profile] the method comes before body size: an oversized PUT is a 405',
    covers('§3.order', '§3.order.route-before-413'),
    async (context) => {
      needActor(context, 'owner')
      const exchange = await send({
        as: 'owner',
        method: 'PUT',
        path: id(),
        body: bodyOfSize(BODY_LIMIT + 1),
        headers: JSON_TYPE,
      })
      expectProblem(
        exchange,
        405,
        'METHOD_NOT_ALLOWED',
        'The order of checks: the method (405) before body size (413) (docs/contract.md §3)',
      )
    },
  )

  test(
    '[profile] body size comes before content type: an oversized text/plain body is a 413',
    covers('§3.order', '§3.order.413-before-415'),
    async (context) => {
      needActor(context, 'owner')
      const exchange = await send({
        as: 'owner',
        method: 'PATCH',
        path: id(),
        body: bodyOfSize(BODY_LIMIT + 1),
        headers: { 'content-type': 'text/plain' },
      })
      expectProblem(exchange, 413, 'PAYLOAD_TOO_LARGE', 'The order of checks: 413 before 415 (docs/contract.md §3)')
    },
  )

  test(
    '[profile] content type comes before validation: an invalid text/plain body is a 415',
    covers('§3.order', '§3.order.415-before-400'),
    async (context) => {
      needActor(context, 'owner')
      const exchange = await send({
        as: 'owner',
        method: 'PATCH',
        path: id(),
        body: '{"name":',
        headers: { 'content-type': 'text/plain' },
      })
      expectProblem(
        exchange,
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'The order of checks: 415 before 400 (docs/contract.md §3)',
      )
    },
  )

  test(
    '[profile] validation comes before existence: an invalid body for an unknown id is a 400',
    covers('§3.order', '§3.order.400-before-404'),
    async (context) => {
      needActor(context, 'owner')
      const exchange = await send({ as: 'owner', method: 'PATCH', path: id(), json: {} })
      expectValidationProblem(exchange, 'body', 'The order of checks: 400 before 404 (docs/contract.md §3)')
    },
  )

  test(
    '[profile] existence comes before permission: a bot reading an unknown id gets a 404',
    covers('§3.order', '§3.order.404-before-403'),
    async (context) => {
      needActor(context, 'bot')
      const exchange = await send({ as: 'bot', path: id() })
      expectProblem(exchange, 404, 'USER_NOT_FOUND', 'The order of checks: 404 before 403 (docs/contract.md §3)')
    },
  )
})

describe.concurrent('every error is a problem whose status is the HTTP status (docs/contract.md §5)', () => {
  test(
    '[profile] a 400 is VALIDATION_FAILED with errors',
    covers('§5.problem', '§5.problem.status', '§5.codes', '§5.errors', '§5.errors.pointer'),
    async (context) => {
      needActor(context, 'owner')
      expectValidationProblem(
        await send({ as: 'owner', path: '/api/users?limit=0' }),
        'query',
        'limit=0 is a 400 (docs/contract.md §4)',
        '/limit',
      )
    },
  )

  test('[profile] a 401 is UNAUTHENTICATED', covers('§5.problem', '§5.problem.status', '§5.codes'), async () => {
    expectProblem(
      await send({ as: null, path: '/api/users' }),
      401,
      'UNAUTHENTICATED',
      'No token is a 401 (docs/contract.md §2)',
    )
  })

  test('[profile] a 403 is FORBIDDEN', covers('§5.problem', '§5.problem.status', '§5.codes'), async (context) => {
    needActor(context, 'bot')
    expectProblem(
      await send({ as: 'bot', path: '/api/users' }),
      403,
      'FORBIDDEN',
      'A bot may not list (docs/contract.md §3)',
    )
  })

  test(
    '[profile] a 404 for an unknown user is USER_NOT_FOUND',
    covers('§5.problem', '§5.problem.status', '§5.codes'),
    async (context) => {
      needActor(context, 'owner')
      const exchange = await send({ as: 'owner', path: userPath(unknownUserId()) })
      expectProblem(exchange, 404, 'USER_NOT_FOUND', 'An unknown id is a 404 (docs/contract.md §3)')
    },
  )

  test(
    '[profile] a 405 is METHOD_NOT_ALLOWED',
    covers('§5.problem', '§5.problem.status', '§5.codes'),
    async (context) => {
      needActor(context, 'owner')
      expectProblem(
        await send({ as: 'owner', method: 'PUT', path: userPath(unknownUserId()) }),
        405,
        'METHOD_NOT_ALLOWED',
        'PUT is a 405 (docs/contract.md §4)',
      )
    },
  )

  test(
    '[profile] a 415 is UNSUPPORTED_MEDIA_TYPE',
    covers('§5.problem', '§5.problem.status', '§5.codes'),
    async (context) => {
      needActor(context, 'owner')
      const exchange = await send({
        as: 'owner',
        method: 'PATCH',
        path: userPath(unknownUserId()),
        body: '{}',
        headers: { 'content-type': 'text/plain' },
      })
      expectProblem(exchange, 415, 'UNSUPPORTED_MEDIA_TYPE', 'A text/plain body is a 415 (docs/contract.md §4)')
    },
  )

  test(
    '[profile] a malformed body is a 4xx, never a 500, and carries no stack trace',
    covers('§5.500'),
    async (context) => {
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
    },
  )
})

const JSON_TYPE = { 'content-type': 'application/json' }

describe.concurrent('what a problem says (docs/contract.md §5)', () => {
  test(
    '[profile] type is a URI reference, and title the reason phrase of the status where type is about:blank, for every error',
    covers('§5.problem.fields', '§5.problem'),
    async (context) => {
      needActor(context, 'owner')
      needActor(context, 'bot')
      const id = (): string => userPath(unknownUserId())
      const exchanges = await Promise.all([
        send({ as: 'owner', path: '/api/users?limit=0' }),
        send({ as: null, path: '/api/users' }),
        send({ as: 'bot', path: '/api/users' }),
        send({ as: 'owner', path: id() }),
        send({ as: 'owner', path: '/api/nothing' }),
        send({ as: 'owner', method: 'PUT', path: id() }),
        send({ as: 'owner', method: 'DELETE', path: id(), body: bodyOfSize(BODY_LIMIT + 1), headers: JSON_TYPE }),
        send({ as: 'owner', method: 'PATCH', path: id(), body: '{}', headers: { 'content-type': 'text/plain' } }),
      ])
      for (const exchange of exchanges) {
        const { status } = exchange.response
        const problem = (exchange.response.body ?? {}) as { type?: unknown; title?: unknown }
        // RFC 9457 §4.2.1: only about:blank fixes the title; a problem type of the backend's own has its own.
        const rule =
          'type is a URI reference; with about:blank, title is the reason phrase of the status (docs/contract.md §5)'
        expectRule(
          exchange,
          typeof problem.type === 'string' && isUriReference(problem.type),
          rule,
          `Received: type ${JSON.stringify(problem.type)}\nExpected: a URI reference (about:blank, or a problem type of your own)`,
        )
        const phrases = reasonPhrasesOf(status)
        expectRule(
          exchange,
          problem.type !== 'about:blank' || phrases.includes(problem.title as string),
          rule,
          `Received: type "about:blank", title ${JSON.stringify(problem.title)}\nExpected: title ${phrases.join(' or ')} (or a type of your own, whose title is its summary)`,
        )
      }
    },
  )

  test(
    '[profile] errors point into the body: /name for a name of the wrong type, "" for a body that is not an object',
    covers('§5.errors.pointer', '§5.errors'),
    async (context) => {
      needActor(context, 'owner')
      const path = userPath(unknownUserId())
      const wrongType = await send({ as: 'owner', method: 'PATCH', path, json: { name: 42 } })
      expectValidationProblem(wrongType, 'body', 'The pointer names the key (docs/contract.md §5)', '/name')
      const notAnObject = await send({ as: 'owner', method: 'PATCH', path, json: ['Ada'] })
      expectValidationProblem(notAnObject, 'body', 'The pointer "" is the whole body (docs/contract.md §5)', '')
    },
  )

  test(
    '[profile] a pointer escapes ~ and / in the keys it names, as RFC 6901 says',
    covers('§5.errors.escaped', '§5.errors.pointer'),
    async (context) => {
      needActor(context, 'owner')
      const json = { 'a/b': 1, 'c~d': 2 }
      const exchange = await send({ as: 'owner', method: 'PATCH', path: userPath(unknownUserId()), json })
      expectValidationProblem(exchange, 'body', 'An unknown key is a 400 (docs/contract.md §4)')
      const errors = (exchange.response.body as { errors: Array<{ in?: unknown; path?: unknown }> }).errors
      // An unknown key's issue points at the key or at the whole body ("" also for "give name, role or
      // status"); never at an unescaped path such as /a/b, which names another place.
      const allowed = ['', '/a~1b', '/c~0d', '/name', '/role', '/status']
      const wrong = errors.filter((error) => error.in === 'body' && !allowed.includes(error.path as string))
      expectRule(
        exchange,
        wrong.length === 0,
        'A pointer escapes ~ as ~0 and / as ~1 (RFC 6901, docs/contract.md §5)',
        `Received: ${wrong.map((error) => JSON.stringify(error.path)).join(', ')} for the keys "a/b" and "c~d"\nExpected: "/a~1b" and "/c~0d" (or "" for the whole body)`,
      )
    },
  )

  test(
    '[profile] a body of 150 unknown keys is a 400 that lists at most 100 issues and says how many there were',
    covers('§5.errors.at-most-100', '§5.errors'),
    async (context) => {
      needActor(context, 'owner')
      const keys = 150
      const json = Object.fromEntries(Array.from({ length: keys }, (_, index) => [`unknown${index}`, index]))
      const exchange = await send({ as: 'owner', method: 'PATCH', path: userPath(unknownUserId()), json })
      expectValidationProblem(exchange, 'body', 'An unknown key is a 400 (docs/contract.md §4)')
      const { errors, detail } = exchange.response.body as { errors: unknown[]; detail?: unknown }
      const rule = 'At most 100 issues are listed; when there were more, detail says how many (docs/contract.md §5)'
      expectRule(exchange, errors.length <= 100, rule, `Received: ${errors.length} issues\nExpected: at most 100`)
      // How issues are counted is the implementation's choice (one may also count "give at least one of
      // name, role, status"): a full list of 100 means more were found, one an unknown key at least, so
      // detail names a count of them all (150 or more) or of those left out (50 or more).
      if (errors.length < 100) return
      const numbers = (typeof detail === 'string' ? (detail.match(/\d[\d,]*/g) ?? []) : []).map((digits) =>
        Number(digits.replaceAll(',', '')),
      )
      expectRule(
        exchange,
        numbers.some((count) => count >= keys || count + errors.length >= keys),
        rule,
        `Received: 100 issues listed, detail ${JSON.stringify(detail)}\nExpected: a detail that counts every issue (at least ${keys}: the body has ${keys} unknown keys) or those left out`,
      )
    },
  )
})

/** RFC 3986: a URI or a relative reference (no white space, nothing a URI never holds). */
function isUriReference(text: string): boolean {
  return /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/.test(text)
}
