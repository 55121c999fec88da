import { describe } from 'vitest'
import { MEMBER_NAMES } from './support/api-user.js'
import { expectProblem } from './support/expect-problem.js'
import { listUsers, readMe, walkUsers } from './support/read-users.js'
import { restoreAfter } from './support/restore-user.js'
import { expectRule, needActor, needDisposable, needWrites, send, suite, test } from './support/suite.js'
import { unknownUserId, userPath } from './support/user-paths.js'
import { covers } from './support/covers.js'

// CONTRACT §3: a user id of another organization, or one that does not exist, is a 404 for every
// caller, also where the role would not allow the operation anyway. Existence never leaks.

const NOT_FOUND = 'The users of another organization do not exist for the caller: 404, never 403 (docs/contract.md §3)'

describe.concurrent('ids of another organization are a 404', () => {
  test(
    "[profile] the outsider gets a 404 for GET of the first organization's owner",
    covers('§3.other-organization'),
    async (context) => {
      needActor(context, 'outsider')
      needActor(context, 'owner')
      const owner = await readMe('owner')
      const exchange = await send({ as: 'outsider', path: userPath(owner.id) })
      expectProblem(exchange, 404, 'USER_NOT_FOUND', NOT_FOUND)
    },
  )

  for (const name of MEMBER_NAMES) {
    test(
      `[profile] the ${name} gets a 404 for GET of the outsider's id`,
      covers('§3.other-organization', '§3.order.404-before-403'),
      async (context) => {
        needActor(context, name)
        needActor(context, 'outsider')
        const outsider = await readMe('outsider')
        const exchange = await send({ as: name, path: userPath(outsider.id) })
        expectProblem(exchange, 404, 'USER_NOT_FOUND', NOT_FOUND)
      },
    )
  }

  // The outsider is not disposable: the PATCH carries its current values, so a broken backend that
  // answers 200 changes nothing. No DELETE is ever aimed at it.
  for (const name of ['owner', 'viewer'] as const) {
    test(
      `[profile] the ${name} gets a 404 for PATCH of the outsider's id, not a 403`,
      covers('§3.other-organization', '§3.order.404-before-403'),
      async (context) => {
        needWrites(context)
        needActor(context, name)
        needActor(context, 'outsider')
        const { id, name: current, role } = await readMe('outsider')
        const exchange = await send({ as: name, method: 'PATCH', path: userPath(id), json: { name: current, role } })
        expectProblem(exchange, 404, 'USER_NOT_FOUND', NOT_FOUND)
      },
    )
  }

  for (const name of MEMBER_NAMES) {
    test(
      `[profile] an unknown id is a 404 for the ${name}'s PATCH and DELETE, not a 403`,
      covers('§3.unknown-id', '§3.order.404-before-403'),
      async (context) => {
        needActor(context, name)
        const id = unknownUserId()
        const patch = await send({ as: name, method: 'PATCH', path: userPath(id), json: { role: 'CLIENT_ADMIN' } })
        expectProblem(
          patch,
          404,
          'USER_NOT_FOUND',
          'An id that does not exist is a 404 for every caller (docs/contract.md §3)',
        )
        const remove = await send({ as: name, method: 'DELETE', path: userPath(id) })
        expectProblem(
          remove,
          404,
          'USER_NOT_FOUND',
          'An id that does not exist is a 404 for every caller (docs/contract.md §3)',
        )
      },
    )
  }
})

// Sequential: both aim at this file's disposable user.
describe('the outsider cannot change or delete a user of the first organization', () => {
  test(
    '[profile] the outsider gets a 404 for PATCH of a first-organization id',
    covers('§3.other-organization'),
    async (context) => {
      needWrites(context)
      needActor(context, 'outsider')
      needActor(context, 'owner')
      const user = needDisposable(context, 'isolation')
      await restoreAfter(context, user)
      const exchange = await send({
        as: 'outsider',
        method: 'PATCH',
        path: userPath(user.id),
        json: { name: 'Outsider Was Here' },
      })
      expectProblem(exchange, 404, 'USER_NOT_FOUND', NOT_FOUND)
    },
  )

  test(
    '[profile] the outsider gets a 404 for DELETE of a first-organization id',
    covers('§3.other-organization'),
    async (context) => {
      needWrites(context)
      needActor(context, 'outsider')
      const user = needDisposable(context, 'isolation')
      const exchange = await send({ as: 'outsider', method: 'DELETE', path: userPath(user.id) })
      expectProblem(exchange, 404, 'USER_NOT_FOUND', NOT_FOUND)
      const still = await send({ as: user, path: '/api/users/me' })
      expectRule(
        still,
        still.response.status === 200,
        NOT_FOUND,
        `Received: ${still.response.status} for the user's own /me after the refused DELETE`,
      )
    },
  )
})

describe.concurrent("lists hold only the caller's organization", () => {
  test(
    "[profile] the outsider never appears in the first organization's list",
    covers('§4.list.own-organization'),
    async (context) => {
      needActor(context, 'owner')
      needActor(context, 'outsider')
      const outsider = await readMe('outsider')
      const page = await listUsers('owner', { search: outsider.email, limit: 100 })
      const leaked = page.items.find(
        (user) => user.id === outsider.id || user.organizationId === outsider.organizationId,
      )
      expectRule(
        page.exchange,
        leaked === undefined,
        "A list holds only the caller's organization (docs/contract.md §4)",
        `Received: ${leaked?.id}`,
      )
    },
  )

  test(
    "[profile] the first organization's users never appear in the outsider's list",
    covers('§4.list.own-organization'),
    async (context) => {
      needActor(context, 'owner')
      needActor(context, 'outsider')
      const [owner, outsider] = await Promise.all([readMe('owner'), readMe('outsider')])
      if (outsider.role === 'BOT_USER') return context.skip('the outsider is a bot, which may not list')
      const rule = "A list holds only the caller's organization (docs/contract.md §4)"
      for (const page of await walkUsers('outsider', { limit: 100 }, 3)) {
        const leaked = page.items.find(
          (user) => user.organizationId === owner.organizationId || user.organizationId !== outsider.organizationId,
        )
        expectRule(page.exchange, leaked === undefined, rule, `Received: ${leaked?.id} of ${leaked?.organizationId}`)
      }
      const members = await Promise.all(
        MEMBER_NAMES.filter((name) => suite.target.actors[name]).map((name) => readMe(name)),
      )
      for (const member of members) {
        const page = await listUsers('outsider', { search: member.email })
        expectRule(
          page.exchange,
          !page.items.some((user) => user.id === member.id),
          rule,
          `Received: ${member.id} searched by email`,
        )
      }
    },
  )
})
