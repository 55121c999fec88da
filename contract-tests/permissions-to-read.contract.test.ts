import { describe } from 'vitest'
import { MEMBER_NAMES, userOf } from './support/api-user.js'
import { expectProblem } from './support/expect-problem.js'
import { listUsers, readMe } from './support/read-users.js'
import { expectRule, expectStatus, needActor, send, test } from './support/suite.js'
import { userPath } from './support/user-paths.js'
import { covers } from './support/covers.js'

// CONTRACT §3, the reading rows of the table, for every role. Nothing here writes.

const READERS = ['owner', 'admin', 'viewer'] as const

describe.concurrent('GET /api/users/me: every role', () => {
  for (const name of MEMBER_NAMES)
    test(
      `[core] the ${name} may read themselves: GET /api/users/me is 200`,
      covers('§3.me.allows'),
      async (context) => {
        needActor(context, name)
        const exchange = await send({ as: name, path: '/api/users/me' })
        expectStatus(exchange, 200, 'Every role may call GET /api/users/me (docs/contract.md §3)')
      },
    )
})

describe.concurrent('GET /api/users: owners, admins and viewers, not bots', () => {
  for (const name of READERS)
    test(`[profile] the ${name} may list users: 200`, covers('§3.list.allows'), async (context) => {
      needActor(context, name)
      const exchange = await send({ as: name, path: '/api/users' })
      expectStatus(exchange, 200, 'Owners, admins and viewers may list users (docs/contract.md §3)')
    })

  test('[profile] a bot may not list users: 403', covers('§3.list.refuses'), async (context) => {
    needActor(context, 'bot')
    const exchange = await send({ as: 'bot', path: '/api/users' })
    expectProblem(exchange, 403, 'FORBIDDEN', 'A bot may not list users (docs/contract.md §3)')
  })
})

describe.concurrent('GET /api/users/{id}: owners, admins and viewers anyone; bots themselves only', () => {
  for (const name of READERS)
    test(`[profile] the ${name} may read another user by id: 200`, covers('§3.read.allows'), async (context) => {
      needActor(context, name)
      const me = await readMe(name)
      const other = (await listUsers(name, { limit: 2 })).items.find((user) => user.id !== me.id)
      if (!other) return context.skip('the organization lists no other user')
      const exchange = await send({ as: name, path: userPath(other.id) })
      expectStatus(exchange, 200, `A ${me.role} may read any user of their organization (docs/contract.md §3)`)
      expectRule(exchange, userOf(exchange).id === other.id, 'GET by id answers that user', 'Received: another user')
    })

  for (const name of MEMBER_NAMES)
    test(`[profile] the ${name} may read themselves by id: 200`, covers('§3.read.allows'), async (context) => {
      needActor(context, name)
      const me = await readMe(name)
      const exchange = await send({ as: name, path: userPath(me.id) })
      expectStatus(exchange, 200, 'Every role may read themselves by id (docs/contract.md §3)')
      expectRule(exchange, userOf(exchange).id === me.id, 'GET by id answers that user', 'Received: another user')
    })

  // Every role as the other user: "only itself" is not "anyone but an owner".
  for (const name of READERS)
    test(`[profile] a bot may not read the ${name} by id: 403`, covers('§3.read.refuses'), async (context) => {
      needActor(context, 'bot')
      needActor(context, name)
      const other = await readMe(name)
      const exchange = await send({ as: 'bot', path: userPath(other.id) })
      expectProblem(exchange, 403, 'FORBIDDEN', `A bot may read only itself, not a ${other.role} (docs/contract.md §3)`)
    })
})
