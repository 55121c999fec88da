import { describe } from 'vitest'
import { ACTOR_NAMES, type ActorName } from '../src/contract/target/target.js'
import { MEMBER_NAMES, userOf } from './support/api-user.js'
import { expectMethodNotAllowed } from './support/expect-allow.js'
import { expectProblem, expectValidationProblem } from './support/expect-problem.js'
import { findUser, listUsers, readMe } from './support/read-users.js'
import { expectRule, expectStatus, needActor, needDisposable, needWrites, send, suite, test } from './support/suite.js'
import { unknownUserId, userPath } from './support/user-paths.js'
import { covers } from './support/covers.js'

// CONTRACT §4, GET /api/users/me and GET /api/users/{id}.

const READERS = ['owner', 'admin', 'viewer'] as const

describe.concurrent('GET /api/users/me', () => {
  for (const name of ACTOR_NAMES) {
    test(
      `[core] GET /api/users/me answers the ${name} as { "data": User }`,
      covers('§4.me.answer', '§4.envelope', '§1.id', '§1.organization-id'),
      async (context) => {
        needActor(context, name)
        const exchange = await send({ as: name, path: '/api/users/me' })
        expectStatus(exchange, 200, 'GET /api/users/me answers the caller (docs/contract.md §4)')
        const me = userOf(exchange)
        const holds = me.id !== '' && typeof me.organizationId === 'string' && me.organizationId !== ''
        expectRule(
          exchange,
          holds,
          'A user has an id and an organization (docs/contract.md §1)',
          `Received: ${JSON.stringify(me)}`,
        )
      },
    )
  }

  test(
    '[core] `me` is a fixed path, never looked up as an id: every actor gets themselves',
    covers('§4.me.fixed'),
    async (context) => {
      const present = ACTOR_NAMES.filter((name) => suite.target.actors[name])
      if (present.length < 2) return context.skip('the target has fewer than two actors')
      const users = await Promise.all(present.map((name) => readMe(name)))
      const exchange = await send({ as: present[0] as ActorName, path: '/api/users/me' })
      const ids = new Set(users.map((user) => user.id))
      const rule = '`me` is the caller, never a user whose id is "me" (docs/contract.md §4)'
      expectRule(
        exchange,
        ids.size === users.length && !ids.has('me'),
        rule,
        `Received: ids ${users.map((user) => user.id).join(', ')}`,
      )
    },
  )

  // A broken backend could take these as "change / delete the caller": the PATCH carries the caller's
  // current name, and the DELETE is sent as a disposable user (update-user's, which a 405 leaves alone).
  test('[core] PATCH /api/users/me is a 405 with Allow: GET', covers('§4.me.405'), async (context) => {
    needWrites(context)
    needActor(context, 'owner')
    const owner = await readMe('owner')
    const exchange = await send({ as: 'owner', method: 'PATCH', path: '/api/users/me', json: { name: owner.name } })
    expectMethodNotAllowed(exchange, ['GET'], 'PATCH /api/users/me is a 405 with Allow: GET (docs/contract.md §4)')
  })

  test('[core] DELETE /api/users/me is a 405 with Allow: GET', covers('§4.me.405'), async (context) => {
    needWrites(context)
    const user = needDisposable(context, 'update')
    const exchange = await send({ as: user, method: 'DELETE', path: '/api/users/me' })
    expectMethodNotAllowed(exchange, ['GET'], 'DELETE /api/users/me is a 405 with Allow: GET (docs/contract.md §4)')
  })
})

describe.concurrent('GET /api/users/{id}', () => {
  for (const name of READERS) {
    test(
      `[profile] the ${name} reads a user by id exactly as the list shows them`,
      covers('§4.get.exists', '§3.read.allows'),
      async (context) => {
        needActor(context, name)
        const disposable = new Set(suite.target.disposable.map((user) => user.id))
        // A user no other file changes: not a disposable one.
        const listed = (await listUsers(name, { limit: 100 })).items.find((user) => !disposable.has(user.id))
        if (!listed) return context.skip('the first page of the list holds only disposable users')
        const exchange = await send({ as: name, path: userPath(listed.id) })
        expectStatus(
          exchange,
          200,
          'Owners, admins and viewers read any user of their organization (docs/contract.md §3)',
        )
        const rule = 'GET /api/users/{id} answers the same user as the list (docs/contract.md §4)'
        const read = userOf(exchange)
        const differing = Object.keys(listed).filter(
          (key) =>
            JSON.stringify(read[key as keyof typeof read]) !== JSON.stringify(listed[key as keyof typeof listed]),
        )
        expectRule(
          exchange,
          differing.length === 0,
          rule,
          `Received: other ${differing.join(', ')}\nListed: ${JSON.stringify(listed)}`,
        )
      },
    )
  }

  for (const name of MEMBER_NAMES) {
    test(
      `[profile] GET /api/users/{id} of the ${name}'s own id is GET /api/users/me`,
      covers('§4.get.exists', '§3.read.allows'),
      async (context) => {
        needActor(context, name)
        const me = await readMe(name)
        const exchange = await send({ as: name, path: userPath(me.id) })
        expectStatus(exchange, 200, 'Every role reads themselves by id (docs/contract.md §3)')
        const same = JSON.stringify(userOf(exchange)) === JSON.stringify(me)
        expectRule(
          exchange,
          same,
          'A user read by id is the same user as /me (docs/contract.md §4)',
          `Received: ${exchange.response.text}\nExpected: ${JSON.stringify(me)}`,
        )
      },
    )
  }

  for (const name of MEMBER_NAMES) {
    test(
      `[profile] an unknown id is a 404 USER_NOT_FOUND for the ${name}`,
      covers('§3.unknown-id', '§5.codes'),
      async (context) => {
        needActor(context, name)
        const exchange = await send({ as: name, path: userPath(unknownUserId()) })
        expectProblem(
          exchange,
          404,
          'USER_NOT_FOUND',
          'An id that does not exist is a 404 for every caller (docs/contract.md §3)',
        )
      },
    )
  }
})

describe.concurrent('which ids name a user (docs/contract.md §3)', () => {
  test(
    '[profile] an id that cannot be an id is a 400 in path /id: not validly percent-encoded, or over 4,096 characters',
    covers('§3.invalid-id', '§5.errors.pointer'),
    async (context) => {
      needActor(context, 'owner')
      for (const path of ['/api/users/%zz', '/api/users/%E0%A4%A', `/api/users/${'i'.repeat(4097)}`]) {
        const exchange = await send({ as: 'owner', path })
        expectValidationProblem(
          exchange,
          'path',
          'An id that cannot be a user id is a 400 (docs/contract.md §3)',
          '/id',
        )
      }
    },
  )

  test(
    '[profile] any other id that names nobody is a 404: 4,096 characters, another case of me, non-ASCII',
    covers('§3.other-ids', '§3.unknown-id'),
    async (context) => {
      needActor(context, 'owner')
      for (const id of ['i'.repeat(4096), 'ME', 'usr_ünïcødé', `${unknownUserId()} `]) {
        const exchange = await send({ as: 'owner', path: userPath(id) })
        expectProblem(
          exchange,
          404,
          'USER_NOT_FOUND',
          'Every other id that names no user is a 404 (docs/contract.md §3)',
        )
      }
    },
  )

  test(
    '[profile] an INVITED user is read by id like any other: 200 with their status',
    covers('§4.get.any-status', '§4.list.every-status'),
    async (context) => {
      needActor(context, 'owner')
      const invited = await findUser((user) => user.status === 'INVITED')
      if (!invited) return context.skip('the organization lists no INVITED user')
      const exchange = await send({ as: 'owner', path: userPath(invited.id) })
      expectStatus(exchange, 200, 'GET /api/users/{id} answers a user whatever their status (docs/contract.md §4)')
      expectRule(
        exchange,
        userOf(exchange).status === 'INVITED',
        'GET answers the user as they are (docs/contract.md §4)',
        `Received: ${userOf(exchange).status}`,
      )
    },
  )
})
