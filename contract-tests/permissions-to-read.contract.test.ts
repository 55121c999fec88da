import { describe } from 'vitest'
import { decidePermission } from '../src/contract/rules/permission-table.js'
import { ACTOR_ROLES, MEMBER_NAMES, userOf } from './support/api-user.js'
import { expectProblem } from './support/expect-problem.js'
import { readMe } from './support/read-users.js'
import { expectRule, expectStatus, needActor, send, test } from './support/suite.js'
import { userPath } from './support/user-paths.js'
import { covers } from './support/covers.js'

// CONTRACT §3, the reading rows of the table, for every role. Nothing here writes.

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

// Who may list and who may read whom: the answers expected are the contract's permission table's
// (src/contract/rules/permission-table.ts, by which permissions-to-change and the proxy judge too).
describe.concurrent('GET /api/users: as the table says, for every role', () => {
  for (const name of MEMBER_NAMES) {
    const { verdict, sentence } = decidePermission({ operation: 'list', caller: ACTOR_ROLES[name] })
    const expected = verdict === 'allowed' ? 200 : 403
    test(
      `[profile] the ${name} ${expected === 200 ? 'may' : 'may not'} list users: ${expected}`,
      covers(sentence),
      async (context) => {
        needActor(context, name)
        const exchange = await send({ as: name, path: '/api/users' })
        const rule = `A ${ACTOR_ROLES[name]} ${expected === 200 ? 'may' : 'may not'} list users (docs/contract.md §3)`
        if (expected === 200) expectStatus(exchange, 200, rule)
        else expectProblem(exchange, 403, 'FORBIDDEN', rule)
      },
    )
  }
})

describe.concurrent('GET /api/users/{id}: as the table says, for every role and every other role', () => {
  for (const name of MEMBER_NAMES)
    test(`[profile] the ${name} may read themselves by id: 200`, covers('§3.read.allows'), async (context) => {
      needActor(context, name)
      const me = await readMe(name)
      const exchange = await send({ as: name, path: userPath(me.id) })
      expectStatus(exchange, 200, 'Every role may read themselves by id (docs/contract.md §3)')
      expectRule(exchange, userOf(exchange).id === me.id, 'GET by id answers that user', 'Received: another user')
    })

  // Every role as the other user: "only itself" is not "anyone but an owner".
  for (const name of MEMBER_NAMES)
    for (const other of MEMBER_NAMES.filter((candidate) => candidate !== name)) {
      const caller = ACTOR_ROLES[name]
      const target = ACTOR_ROLES[other]
      const { verdict, sentence } = decidePermission({ operation: 'read', caller, self: false, target })
      const expected = verdict === 'allowed' ? 200 : 403
      const may = expected === 200 ? 'may' : 'may not'
      test(`[profile] the ${name} ${may} read the ${other} by id: ${expected}`, covers(sentence), async (context) => {
        needActor(context, name)
        needActor(context, other)
        const them = await readMe(other)
        const exchange = await send({ as: name, path: userPath(them.id) })
        const rule = `A ${caller} ${may} read a ${target} of their organization (docs/contract.md §3)`
        if (expected === 403) return expectProblem(exchange, 403, 'FORBIDDEN', rule)
        expectStatus(exchange, 200, rule)
        expectRule(exchange, userOf(exchange).id === them.id, 'GET by id answers that user', 'Received: another user')
      })
    }
})
