import { describe } from 'vitest'
import { ACTOR_ROLES, MEMBER_NAMES, userOf } from './support/api-user.js'
import { expectUnauthenticated } from './support/expect-unauthenticated.js'
import { readMe } from './support/read-users.js'
import { restoreAfter } from './support/restore-user.js'
import {
  expectRule,
  expectStatus,
  needActor,
  needDisposable,
  needWrites,
  send,
  skipByChoice,
  suite,
  test,
} from './support/suite.js'
import { INACTIVE_DESCRIPTIONS } from '../src/target/target-format.js'
import { unknownUserId, userPath } from './support/user-paths.js'
import { covers } from './support/covers.js'

// CONTRACT §2 is core entirely: every check here is [core].

describe.concurrent('a request without a valid Bearer token is a 401', () => {
  test(
    '[core] a missing Authorization header is a 401 with WWW-Authenticate: Bearer',
    covers('§2.missing-header', '§2.www-authenticate', '§2.invalid-token'),
    async () => {
      const exchange = await send({ as: null, path: '/api/users/me' })
      expectUnauthenticated(exchange, false, 'A request without Authorization is a 401 (docs/contract.md §2)')
    },
  )

  test(
    '[core] every endpoint requires the Authorization header: 401',
    covers('§2.header-required', '§2.missing-header', '§2.www-authenticate'),
    async () => {
      // An unknown id: authentication comes first (CONTRACT §3), and nothing can change even if it did not.
      const id = unknownUserId()
      const requests = [
        { method: 'GET', path: '/api/users' },
        { method: 'GET', path: '/api/users/me' },
        { method: 'GET', path: userPath(id) },
        { method: 'PATCH', path: userPath(id), json: { name: 'Nobody' } },
        { method: 'DELETE', path: userPath(id) },
      ]
      for (const request of requests) {
        const exchange = await send({ as: null, ...request })
        expectUnauthenticated(exchange, false, `${request.method} without Authorization is a 401 (docs/contract.md §2)`)
      }
    },
  )

  test(
    '[core] a scheme other than Bearer is a 401, even with a valid token',
    covers('§2.other-scheme', '§2.invalid-token'),
    async (context) => {
      needActor(context, 'owner')
      const token = suite.target.actors.owner?.token ?? ''
      for (const scheme of ['Basic', 'Token']) {
        const exchange = await send({
          as: null,
          path: '/api/users/me',
          headers: { authorization: `${scheme} ${token}` },
        })
        expectUnauthenticated(exchange, false, `Authorization: ${scheme} … is a 401 (docs/contract.md §2)`)
      }
    },
  )

  test(
    '[core] Bearer with an empty token is a 401 without error="invalid_token"',
    covers('§2.empty-token', '§2.invalid-token'),
    async () => {
      const exchange = await send({ as: { token: '' }, path: '/api/users/me' })
      expectUnauthenticated(exchange, false, 'Authorization: Bearer with no token is a 401 (docs/contract.md §2)')
    },
  )

  test(
    '[core] an unknown token is a 401 with error="invalid_token"',
    covers('§2.unknown-token', '§2.invalid-token', '§2.www-authenticate'),
    async () => {
      const exchange = await send({ as: { token: `unknown-${unknownUserId()}` }, path: '/api/users/me' })
      expectUnauthenticated(exchange, true, 'An unknown token is a 401 (docs/contract.md §2)')
    },
  )
})

describe.concurrent("the caller's identity comes from the token alone", () => {
  for (const name of MEMBER_NAMES)
    test(
      `[core] GET /api/users/me with the ${name} token answers a user of its role`,
      covers('§2.identity-from-token'),
      async (context) => {
        needActor(context, name)
        const exchange = await send({ as: name, path: '/api/users/me' })
        expectStatus(exchange, 200, 'An active user may call GET /api/users/me (docs/contract.md §2)')
        const me = userOf(exchange)
        const rule = 'The caller is the user of the token (docs/contract.md §2)'
        expectRule(
          exchange,
          me.role === ACTOR_ROLES[name],
          rule,
          `Received: role ${me.role}\nExpected: ${ACTOR_ROLES[name]}`,
        )
      },
    )

  test(
    "[core] the owner, admin, viewer and bot share one organization; the outsider's is another",
    covers('§2.identity-from-token'),
    async (context) => {
      for (const name of [...MEMBER_NAMES, 'outsider'] as const) needActor(context, name)
      const members = await Promise.all(MEMBER_NAMES.map((name) => readMe(name)))
      const outsider = await readMe('outsider')
      const organizations = new Set(members.map((user) => user.organizationId))
      const exchange = await send({ as: 'outsider', path: '/api/users/me' })
      const rule = 'The organization comes from the token (docs/contract.md §2)'
      expectRule(exchange, organizations.size === 1, rule, `Received: organizations ${[...organizations].join(', ')}`)
      expectRule(
        exchange,
        !organizations.has(outsider.organizationId),
        rule,
        'Received: the outsider in the first organization',
      )
      expectRule(
        exchange,
        new Set(members.map((user) => user.id)).size === members.length,
        rule,
        'Received: two actors, one id',
      )
    },
  )

  test(
    '[core] headers other than Authorization do not change who the caller is',
    covers('§2.identity-from-token'),
    async (context) => {
      needActor(context, 'owner')
      needActor(context, 'viewer')
      const owner = await readMe('owner')
      const exchange = await send({
        as: 'viewer',
        path: '/api/users/me',
        // Ids are opaque (docs/contract.md §1) and may hold any character: a header carries bytes, so
        // one that is not ISO-8859-1 goes percent-encoded, as a backend reading such a header would expect.
        headers: {
          'x-user-id': asHeader(owner.id),
          'x-organization-id': asHeader(owner.organizationId),
          'x-role': owner.role,
        },
      })
      expectStatus(exchange, 200, 'An active user may call GET /api/users/me (docs/contract.md §2)')
      const me = userOf(exchange)
      const rule = "The caller's identity comes from the token alone (docs/contract.md §2)"
      expectRule(exchange, me.id !== owner.id && me.role === 'CLIENT_VIEWER', rule, `Received: ${me.id} (${me.role})`)
    },
  )
})

// The target's inactive users (optional): their tokens are refused as they are, nothing written. An INVITED
// user's token is the only way to see §2's rule for them: the users API cannot make a user INVITED. A target
// file outlives its users' changes (an invitation accepted, a user reactivated): a token that answers /me as an
// ACTIVE user is the target's lack, not the backend's fault.
describe.concurrent('the tokens of users who may not act', () => {
  for (const [name, status, article] of [
    ['invited', 'INVITED', 'an'],
    ['suspended', 'SUSPENDED', 'a'],
  ] as const)
    test(
      `[core] the token of ${article} ${status} user the target names is a 401 with error="invalid_token"`,
      covers(name === 'invited' ? '§2.invited-token' : '§2.suspended-token', '§2.invalid-token'),
      async (context) => {
        const holder = suite.target.inactive?.[name]
        if (!holder) {
          return skipByChoice(
            context,
            `the target names no inactive.${name} (${INACTIVE_DESCRIPTIONS[name]}): optional`,
          )
        }
        const rule = `The token of ${article} ${status} user is a 401 (docs/contract.md §2)`
        const me = await send({ as: holder, path: '/api/users/me' })
        if (me.response.status === 200 && userOf(me).status === 'ACTIVE') {
          return context.skip(
            `the target's inactive.${name} is the token of a user who is ACTIVE now: give the token of ${INACTIVE_DESCRIPTIONS[name]}`,
          )
        }
        expectUnauthenticated(me, true, rule)
        expectUnauthenticated(await send({ as: holder, path: '/api/users' }), true, rule)
      },
    )
})

// §2 refuses the token of every SUSPENDED user, whatever their role, and suspension does not revoke it: a
// backend that checks the status only for some roles (or only where a role's rights are read) lets a suspended
// admin or bot in. The disposable user is a CLIENT_VIEWER; for the other roles the owner makes them one first.
describe('suspension refuses a token of any role without revoking it', () => {
  for (const role of ['CLIENT_VIEWER', 'CLIENT_ADMIN', 'BOT_USER'] as const)
    test(
      `[core] a suspended ${role} is refused (401), then accepted again once ACTIVE`,
      covers('§2.suspended-token', '§2.suspension-keeps-token', '§4.patch.active-suspended'),
      async (context) => {
        needWrites(context)
        needActor(context, 'owner')
        const user = needDisposable(context, 'authentication')
        const before = await restoreAfter(context, user)
        const patch = (json: Record<string, string>) =>
          send({ as: 'owner', method: 'PATCH', path: userPath(user.id), json })
        if (before.role !== role) {
          expectStatus(await patch({ role }), 200, 'An owner may change the role of a non-owner (docs/contract.md §3)')
        }
        expectStatus(await patch({ status: 'SUSPENDED' }), 200, 'An owner may suspend a user (docs/contract.md §3)')
        for (const path of ['/api/users/me', userPath(user.id)]) {
          const refused = await send({ as: user, path })
          expectUnauthenticated(refused, true, `The token of a SUSPENDED ${role} is a 401 (docs/contract.md §2)`)
        }
        expectStatus(await patch({ status: 'ACTIVE' }), 200, 'An owner may reactivate a user (docs/contract.md §3)')
        const accepted = await send({ as: user, path: '/api/users/me' })
        expectStatus(
          accepted,
          200,
          'Suspension does not revoke the token: once ACTIVE again, it works (docs/contract.md §2)',
        )
        const me = userOf(accepted)
        expectRule(
          accepted,
          me.id === user.id && me.role === role,
          'The caller is the user of the token, with the role they have now (docs/contract.md §2)',
          `Received: ${me.id}, role ${me.role}\nExpected: ${user.id}, role ${role}`,
        )
      },
    )
})

// How the header is read is profile (docs/contract.md §2, after the list).
describe.concurrent('how the Authorization header is read', () => {
  test(
    '[profile] the scheme matches case-insensitively: bearer is Bearer',
    covers('§2.scheme-case'),
    async (context) => {
      needActor(context, 'owner')
      const token = suite.target.actors.owner?.token ?? ''
      for (const scheme of ['bearer', 'BEARER']) {
        const exchange = await send({
          as: null,
          path: '/api/users/me',
          headers: { authorization: `${scheme} ${token}` },
        })
        expectStatus(exchange, 200, `Authorization: ${scheme} … is the Bearer scheme (docs/contract.md §2)`)
      }
    },
  )

  test(
    '[profile] spaces and tabs before the token are ignored; a no-break space after it makes an unknown token',
    covers('§2.token-white-space', '§2.unknown-token'),
    async (context) => {
      needActor(context, 'owner')
      const token = suite.target.actors.owner?.token ?? ''
      // The token as written first: a refusal of it padded is then the padding's (and a proxy in between sees
      // the same token accepted a moment before).
      expectStatus(
        await send({ as: 'owner', path: '/api/users/me' }),
        200,
        'The owner token is accepted (docs/contract.md §2)',
      )
      const padded = await send({ as: null, path: '/api/users/me', headers: { authorization: `Bearer \t ${token}` } })
      expectStatus(padded, 200, 'Spaces and tabs around the token are ignored (docs/contract.md §2)')
      const noBreak = await send({
        as: null,
        path: '/api/users/me',
        headers: { authorization: `Bearer ${token}\u00a0` },
      })
      expectUnauthenticated(
        noBreak,
        true,
        'A token followed by a no-break space is an unknown token (docs/contract.md §2)',
      )
    },
  )
})

/** A value as a header can carry it: as it is when every character fits a byte, else percent-encoded. */
function asHeader(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : encodeURIComponent(value)
}
