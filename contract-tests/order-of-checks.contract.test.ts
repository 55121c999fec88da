import { describe, type TestContext } from 'vitest'
import type { Exchange } from '../src/contract/client/exchange.js'
import type { ActorName } from '../src/contract/target/target.js'
import { BODY_LIMIT, bodyOfSize } from './support/body-of-size.js'
import { covers } from './support/covers.js'
import { expectProblem } from './support/expect-problem.js'
import { expectUnauthenticated } from './support/expect-unauthenticated.js'
import { findUser, readMe } from './support/read-users.js'
import { needActor, needDisposable, needWrites, send, type Request, test } from './support/suite.js'
import { unknownUserId, userPath } from './support/user-paths.js'
import type { SentenceId } from '../src/contract/rules/contract-sentences.js'

// CONTRACT §3, the order of checks, pair by pair: for each two adjacent steps that can both fail on a
// route, one request that fails both gets the earlier step's answer, on every route (the documented
// operations, /api/users/me, methods the document does not list, unknown routes). The steps a route
// cannot fail are left out: GET reads no body (the suite sends none with a GET, so body size on GET is
// not sent at all), and only PATCH /api/users/{id} reads a media type or has a state rule.
//
// Nothing can change, even on a backend that gets the order wrong: ids name nobody, bodies hold a
// name far too long, methods that could delete are sent by a viewer (who may delete nobody) or, on
// /api/users/me, by a disposable user.

const OVERSIZED = bodyOfSize(BODY_LIMIT + 1)
const JSON_TYPE = { 'content-type': 'application/json' }
const TEXT_TYPE = { 'content-type': 'text/plain' }
/** A body no backend may apply: a name of 101 characters (docs/contract.md §1). */
const TOO_LONG_NAME = JSON.stringify({ name: 'n'.repeat(101) })
/** An id that cannot be an id: not validly percent-encoded (docs/contract.md §3). */
const NOT_AN_ID = '/api/users/%zz'
/** One too long: 4,097 characters (the request line stays far under the 16 KiB parsers accept). */
const TOO_LONG_ID = `/api/users/${'i'.repeat(4097)}`

const UNAUTHENTICATED = { status: 401, code: 'UNAUTHENTICATED' } as const
const NOT_FOUND_ROUTE = { status: 404, code: 'NOT_FOUND' } as const
const NOT_ALLOWED = { status: 405, code: 'METHOD_NOT_ALLOWED' } as const
const TOO_LARGE = { status: 413, code: 'PAYLOAD_TOO_LARGE' } as const
const UNSUPPORTED = { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' } as const
const INVALID = { status: 400, code: 'VALIDATION_FAILED' } as const
const NO_USER = { status: 404, code: 'USER_NOT_FOUND' } as const

interface OrderCase {
  /** The route, as the table of docs/contract.md §4 names it. */
  route: string
  /** The two rules it breaks, the one whose step comes first named first. */
  breaks: string
  /** The sentences it proves besides §3.order: the pair of steps, and any example of §3 it is. */
  proves: SentenceId[]
  expected: { status: number; code: string }
  /** Who sends it; 'disposable' is update-user's disposable user (for DELETE /api/users/me). */
  as: ActorName | 'disposable' | null
  request: () => Omit<Request, 'as'>
  /** A 401 for a non-empty token, refused: WWW-Authenticate says error="invalid_token" (docs/contract.md §2). */
  invalidToken?: boolean
}

/** A path to an id that names nobody: nothing can change, whatever the backend does. */
const unknownIdPath = (): string => userPath(unknownUserId())

/** Routes under /api that do not exist: 404 NOT_FOUND once authenticated (docs/contract.md §4). */
const UNKNOWN_ROUTES = [
  { route: '/api/nothing', path: (): string => '/api/nothing' },
  { route: '/api/users/ (a trailing slash)', path: (): string => '/api/users/' },
  { route: '/api/users/me/friends', path: (): string => '/api/users/me/friends' },
  { route: '/api/users/{id}/roles', path: (): string => `${unknownIdPath()}/roles` },
]

/** Methods the document does not give a path: 405 (docs/contract.md §4). */
const UNDOCUMENTED_METHODS: Array<{ method: string; path: () => string; as: OrderCase['as'] }> = [
  { method: 'POST', path: () => '/api/users', as: 'viewer' },
  { method: 'PUT', path: () => '/api/users', as: 'viewer' },
  { method: 'DELETE', path: () => '/api/users', as: 'viewer' },
  { method: 'PUT', path: unknownIdPath, as: 'viewer' },
  { method: 'POST', path: unknownIdPath, as: 'viewer' },
  { method: 'PATCH', path: () => '/api/users/me', as: 'viewer' },
  { method: 'DELETE', path: () => '/api/users/me', as: 'disposable' },
  { method: 'PUT', path: () => '/api/users/me', as: 'viewer' },
  { method: 'POST', path: () => '/api/users/me', as: 'viewer' },
]

/** Credentials that are a 401 besides a missing header: another scheme, an empty token, an unknown one. */
const REFUSED_CREDENTIALS = [
  { what: 'a Basic scheme', authorization: 'Basic dXNlcjpwYXNzd29yZA==', invalidToken: false },
  { what: 'an empty Bearer token', authorization: 'Bearer ', invalidToken: false },
  { what: 'an unknown token', authorization: 'Bearer unknown-token-of-nobody', invalidToken: true },
]

/** How a title names a route: ids as {id}. */
const nameRoute = (method: string, path: () => string): string => {
  const shown = path()
  return `${method} ${shown.startsWith('/api/users/usr_') ? '/api/users/{id}' : shown}`
}

// prettier-ignore
const CASES: OrderCase[] = [
  // Step 1 (401) before step 2 (404, 405).
  ...UNKNOWN_ROUTES.map(({ route, path }): OrderCase => ({
    route: `GET ${route}`, breaks: 'no token, an unknown route', proves: ['§3.order.401-before-route'],
    expected: UNAUTHENTICATED, as: null, request: () => ({ path: path() }),
  })),
  ...UNDOCUMENTED_METHODS.map(({ method, path }): OrderCase => ({
    route: nameRoute(method, path), breaks: 'no token, a method the path does not answer', proves: ['§3.order.401-before-route'],
    expected: UNAUTHENTICATED, as: null, request: () => ({ method, path: path() }),
  })),

  // Step 1 (401) before step 2, for every kind of 401 (docs/contract.md §2), not only a missing header.
  ...REFUSED_CREDENTIALS.flatMap(({ what, authorization, invalidToken }): OrderCase[] => [
    { route: 'GET /api/nothing', breaks: `${what}, an unknown route`, proves: ['§3.order.401-before-route'],
      expected: UNAUTHENTICATED, as: null, invalidToken, request: () => ({ path: '/api/nothing', headers: { authorization } }) },
    { route: 'PUT /api/users/{id}', breaks: `${what}, a method the path does not answer`, proves: ['§3.order.401-before-route'],
      expected: UNAUTHENTICATED, as: null, invalidToken, request: () => ({ method: 'PUT', path: unknownIdPath(), headers: { authorization } }) },
  ]),

  // Step 1 (401) before step 5 (400): an id that cannot be an id is judged only once the caller is known.
  ...(['GET', 'PATCH', 'DELETE'] as const).flatMap((method) =>
    [['not validly percent-encoded', NOT_AN_ID], ['of 4,097 characters', TOO_LONG_ID]].map(([what, path]): OrderCase => ({
      route: `${method} /api/users/{id}`, breaks: `no token, an id ${what}`, proves: ['§2.header-required'],
      expected: UNAUTHENTICATED, as: null,
      request: () => ({ method, path: path as string, ...(method === 'PATCH' ? { json: { name: 'Nobody' } } : {}) }),
    })),
  ),

  // Step 2 (404, 405) before step 3 (413).
  ...UNKNOWN_ROUTES.map(({ route, path }): OrderCase => ({
    route: `POST ${route}`, breaks: 'an unknown route, a body over 16 KiB', proves: ['§3.order.route-before-413'],
    expected: NOT_FOUND_ROUTE, as: 'viewer', request: () => ({ method: 'POST', path: path(), body: OVERSIZED, headers: JSON_TYPE }),
  })),
  ...UNDOCUMENTED_METHODS.map(({ method, path, as }): OrderCase => ({
    route: nameRoute(method, path), breaks: 'a method the path does not answer, a body over 16 KiB', proves: ['§3.order.route-before-413'],
    expected: NOT_ALLOWED, as, request: () => ({ method, path: path(), body: OVERSIZED, headers: JSON_TYPE }),
  })),

  // Step 1 (401) before step 3 (413), where no route or method can fail in between.
  ...(['PATCH', 'DELETE'] as const).map((method): OrderCase => ({
    route: `${method} /api/users/{id}`, breaks: 'no token, a body over 16 KiB', proves: [],
    expected: UNAUTHENTICATED, as: null, request: () => ({ method, path: unknownIdPath(), body: OVERSIZED, headers: JSON_TYPE }),
  })),

  // Step 3 (413) before step 4 (415): PATCH reads a media type; DELETE reads no body, and its size still counts.
  { route: 'PATCH /api/users/{id}', breaks: 'a body over 16 KiB sent as text/plain', proves: ['§3.order.413-before-415'],
    expected: TOO_LARGE, as: 'owner', request: () => ({ method: 'PATCH', path: unknownIdPath(), body: OVERSIZED, headers: TEXT_TYPE }) },
  { route: 'PATCH /api/users/{id}', breaks: 'a body over 16 KiB with Content-Encoding: gzip', proves: ['§3.order.413-before-415'],
    expected: TOO_LARGE, as: 'owner',
    request: () => ({ method: 'PATCH', path: unknownIdPath(), body: OVERSIZED, headers: { ...JSON_TYPE, 'content-encoding': 'gzip' } }) },
  { route: 'PATCH /api/users/{id}', breaks: 'a body over 16 KiB without Content-Type', proves: ['§3.order.413-before-415'],
    expected: TOO_LARGE, as: 'owner', request: () => ({ method: 'PATCH', path: unknownIdPath(), body: OVERSIZED, withoutContentType: true }) },

  // Step 3 (413) before step 5 (400), where the route reads no media type.
  { route: 'DELETE /api/users/{id}', breaks: 'a body over 16 KiB, an id that cannot be an id', proves: ['§4.bodies.413', '§3.order.examples'],
    expected: TOO_LARGE, as: 'viewer', request: () => ({ method: 'DELETE', path: NOT_AN_ID, body: OVERSIZED, headers: TEXT_TYPE }) },

  // Steps 2 and 3 before step 5 (400): an id that cannot be an id comes after 405 and 413.
  { route: 'PUT /api/users/{id}', breaks: 'a method the path does not answer, an id that cannot be an id', proves: ['§3.order.examples'],
    expected: NOT_ALLOWED, as: 'viewer', request: () => ({ method: 'PUT', path: NOT_AN_ID, json: { name: 'Nobody' } }) },
  { route: 'PATCH /api/users/{id}', breaks: 'a body over 16 KiB, an id that cannot be an id', proves: ['§3.order.examples'],
    expected: TOO_LARGE, as: 'owner', request: () => ({ method: 'PATCH', path: NOT_AN_ID, body: OVERSIZED, headers: JSON_TYPE }) },

  // Step 2 (405) before step 4 (415): a method the path does not answer reads no media type. The body's name is
  // far too long, so that even a backend that read it as JSON and took PATCH on /me could store nothing.
  { route: 'PATCH /api/users/me', breaks: 'a method the path does not answer, Content-Type text/plain', proves: ['§4.me.405'],
    expected: NOT_ALLOWED, as: 'viewer', request: () => ({ method: 'PATCH', path: '/api/users/me', body: TOO_LONG_NAME, headers: TEXT_TYPE }) },
  { route: 'POST /api/users', breaks: 'a method the path does not answer, Content-Type text/plain', proves: ['§4.other.405'],
    expected: NOT_ALLOWED, as: 'viewer', request: () => ({ method: 'POST', path: '/api/users', body: TOO_LONG_NAME, headers: TEXT_TYPE }) },

  // Step 4 (415) before step 5 (400).
  { route: 'PATCH /api/users/{id}', breaks: 'Content-Type text/plain, a body that is not JSON', proves: ['§3.order.415-before-400'],
    expected: UNSUPPORTED, as: 'owner', request: () => ({ method: 'PATCH', path: unknownIdPath(), body: '{"name":', headers: TEXT_TYPE }) },
  { route: 'PATCH /api/users/{id}', breaks: 'Content-Encoding: gzip, an empty object', proves: ['§3.order.415-before-400'],
    expected: UNSUPPORTED, as: 'owner',
    request: () => ({ method: 'PATCH', path: unknownIdPath(), body: '{}', headers: { ...JSON_TYPE, 'content-encoding': 'gzip' } }) },
  { route: 'PATCH /api/users/{id}', breaks: 'no Content-Type, an empty object', proves: ['§3.order.415-before-400'],
    expected: UNSUPPORTED, as: 'owner', request: () => ({ method: 'PATCH', path: unknownIdPath(), body: '{}', withoutContentType: true }) },
  { route: 'PATCH /api/users/{id}', breaks: 'Content-Type text/plain, an id that cannot be an id', proves: ['§3.order.415-before-400', '§3.order.examples'],
    expected: UNSUPPORTED, as: 'owner', request: () => ({ method: 'PATCH', path: NOT_AN_ID, body: '{"name":"Ada"}', headers: TEXT_TYPE }) },

  // Step 5 (400) before step 6 (404): an id that cannot be an id names nobody either.
  ...(['GET', 'PATCH', 'DELETE'] as const).flatMap((method) =>
    [['not validly percent-encoded', NOT_AN_ID], ['of 4,097 characters', TOO_LONG_ID]].map(([what, path]): OrderCase => ({
      route: `${method} /api/users/{id}`, breaks: `an id ${what}, which names no user`, proves: ['§3.order.400-before-404'],
      expected: INVALID, as: method === 'DELETE' ? 'viewer' : 'owner',
      request: () => ({ method, path: path as string, ...(method === 'PATCH' ? { json: { name: 'Nobody' } } : {}) }),
    })),
  ),
  { route: 'PATCH /api/users/{id}', breaks: 'an unknown key in the body, an id that names nobody', proves: ['§3.order.400-before-404'],
    expected: INVALID, as: 'owner', request: () => ({ method: 'PATCH', path: unknownIdPath(), json: { name: 'Ada', email: 'ada@example.org' } }) },

  // Step 6 (404) before step 7 (403).
  { route: 'GET /api/users/{id}', breaks: 'a bot reading another user, an id that names nobody', proves: ['§3.order.404-before-403'],
    expected: NO_USER, as: 'bot', request: () => ({ path: unknownIdPath() }) },
  { route: 'PATCH /api/users/{id}', breaks: 'a viewer renaming another user, an id that names nobody', proves: ['§3.order.404-before-403'],
    expected: NO_USER, as: 'viewer', request: () => ({ method: 'PATCH', path: unknownIdPath(), json: { name: 'Nobody' } }) },
  { route: 'PATCH /api/users/{id}', breaks: 'an admin making someone an owner, an id that names nobody', proves: ['§3.order.404-before-403'],
    expected: NO_USER, as: 'admin', request: () => ({ method: 'PATCH', path: unknownIdPath(), json: { role: 'CLIENT_OWNER' } }) },
  { route: 'DELETE /api/users/{id}', breaks: 'a bot deleting, an id that names nobody', proves: ['§3.order.404-before-403'],
    expected: NO_USER, as: 'bot', request: () => ({ method: 'DELETE', path: unknownIdPath() }) },
  { route: 'DELETE /api/users/{id}', breaks: 'a viewer deleting, an id that names nobody', proves: ['§3.order.404-before-403'],
    expected: NO_USER, as: 'viewer', request: () => ({ method: 'DELETE', path: unknownIdPath() }) },
  { route: 'PATCH /api/users/{id}', breaks: 'a bot setting a status, an id that names nobody', proves: ['§3.order.404-before-403'],
    expected: NO_USER, as: 'bot', request: () => ({ method: 'PATCH', path: unknownIdPath(), json: { status: 'SUSPENDED' } }) },

  // Step 5 (400) before step 6 (404), with other bodies than an unknown key.
  { route: 'PATCH /api/users/{id}', breaks: 'a body that is not JSON, an id that names nobody', proves: ['§3.order.400-before-404'],
    expected: INVALID, as: 'owner', request: () => ({ method: 'PATCH', path: unknownIdPath(), body: '{"name":', headers: JSON_TYPE }) },
  { route: 'PATCH /api/users/{id}', breaks: 'a null name, an id that names nobody', proves: ['§3.order.400-before-404'],
    expected: INVALID, as: 'owner', request: () => ({ method: 'PATCH', path: unknownIdPath(), json: { name: null } }) },
  { route: 'PATCH /api/users/{id}', breaks: 'no body at all, an id that names nobody', proves: ['§3.order.400-before-404'],
    expected: INVALID, as: 'owner', request: () => ({ method: 'PATCH', path: unknownIdPath(), headers: JSON_TYPE }) },
]

describe.concurrent('the order of checks, pair by pair, on every route (docs/contract.md §3)', () => {
  for (const check of CASES) {
    const title = `[profile] ${check.route}: ${check.breaks} is a ${check.expected.status}`
    test(title, covers('§3.order', ...check.proves), async (context) => {
      const exchange = await sendAs(context, check)
      const rule = `The order of checks: ${check.breaks} gets ${check.expected.status} (docs/contract.md §3)`
      if (check.expected.status === 401) expectUnauthenticated(exchange, check.invalidToken === true, rule)
      expectProblem(exchange, check.expected.status, check.expected.code, rule)
    })
  }

  test(
    "[profile] GET /api/users/{id}: a bot reading the outsider's id is a 404",
    covers('§3.order', '§3.order.404-before-403', '§3.other-organization'),
    async (context) => {
      needActor(context, 'bot')
      needActor(context, 'outsider')
      const outsider = await readMe('outsider')
      const exchange = await send({ as: 'bot', path: userPath(outsider.id) })
      expectProblem(
        exchange,
        404,
        'USER_NOT_FOUND',
        'The order of checks: existence (404) before permission (403) (docs/contract.md §3)',
      )
    },
  )

  test(
    '[profile] PATCH /api/users/{id}: a viewer renaming the outsider (to their own name) is a 404',
    covers('§3.order', '§3.order.404-before-403', '§3.other-organization'),
    async (context) => {
      needActor(context, 'viewer')
      needActor(context, 'outsider')
      const outsider = await readMe('outsider')
      // The outsider's own name: even a backend that wrongly accepted it would change nothing.
      const exchange = await send({
        as: 'viewer',
        method: 'PATCH',
        path: userPath(outsider.id),
        json: { name: outsider.name },
      })
      expectProblem(
        exchange,
        404,
        'USER_NOT_FOUND',
        'The order of checks: existence (404) before permission (403) (docs/contract.md §3)',
      )
    },
  )

  // Step 7 (403) before step 8 (409): the state rule needs an INVITED user, which a target may not have.
  // A viewer may change nobody's status: a backend that checked the state first would answer 409.
  for (const actor of ['viewer', 'bot'] as const)
    test(
      `[profile] PATCH /api/users/{id}: a ${actor} setting an INVITED user's status is a 403`,
      covers('§3.order', '§3.order.403-before-409'),
      async (context) => {
        needWrites(context)
        needActor(context, actor)
        needActor(context, 'owner')
        const invited = await findUser((user) => user.status === 'INVITED')
        if (!invited) return context.skip('the organization lists no INVITED user')
        const exchange = await send({
          as: actor,
          method: 'PATCH',
          path: userPath(invited.id),
          json: { status: 'SUSPENDED' },
        })
        expectProblem(
          exchange,
          403,
          'FORBIDDEN',
          'The order of checks: permission (403) before the state rule (409) (docs/contract.md §3)',
        )
      },
    )

  // Step 5 (400) before step 8 (409): a body invalid because of the state rule's own field, or beside it,
  // sent to an INVITED user (whose status PATCH never changes) by the owner, whom the table allows.
  for (const [breaks, json] of [
    ['a status no PATCH may set (INVITED)', { status: 'INVITED' }],
    ['a status change beside an empty name', { status: 'SUSPENDED', name: '' }],
  ] as const) {
    test(
      `[profile] PATCH /api/users/{id} of an INVITED user: ${breaks} is a 400, not a 409`,
      covers('§3.order', '§4.patch.status-values', '§4.patch.409'),
      async (context) => {
        needWrites(context)
        needActor(context, 'owner')
        const invited = await findUser((user) => user.status === 'INVITED')
        if (!invited) return context.skip('the organization lists no INVITED user')
        const exchange = await send({ as: 'owner', method: 'PATCH', path: userPath(invited.id), json })
        expectProblem(
          exchange,
          400,
          'VALIDATION_FAILED',
          'The order of checks: validation (400) before the state rule (409) (docs/contract.md §3)',
        )
      },
    )
  }

  test(
    '[profile] GET /api/users: no token and an invalid query is a 401',
    covers('§3.order', '§2.header-required'),
    async () => {
      const exchange = await send({ as: null, path: '/api/users?limit=0' })
      expectUnauthenticated(
        exchange,
        false,
        'The order of checks: authentication (401) before validation (400) (docs/contract.md §3)',
      )
    },
  )
})

async function sendAs(context: TestContext, check: OrderCase): Promise<Exchange> {
  if (check.as === null) return send({ as: null, ...check.request() })
  if (check.as === 'disposable') {
    needWrites(context)
    return send({ as: needDisposable(context, 'update'), ...check.request() })
  }
  needActor(context, check.as)
  return send({ as: check.as, ...check.request() })
}
