import { describe } from 'vitest'
import { decidePermission } from '../src/contract/rules/permission-table.js'
import { ACTOR_ROLES, MEMBER_NAMES, userOf, type ApiUser } from './support/api-user.js'
import { expectProblem } from './support/expect-problem.js'
import { listUsers, readMe } from './support/read-users.js'
import { untilSteady } from './support/until-steady.js'
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

// A role that may list sees the list the owner sees: the whole organization, of every status (a backend
// that lists a viewer's colleagues only when ACTIVE, or an admin's non-owners only, answers 200 too).
describe.concurrent('GET /api/users: every role that may list sees the same users', () => {
  for (const name of MEMBER_NAMES.filter((candidate) => candidate !== 'owner')) {
    const { verdict } = decidePermission({ operation: 'list', caller: ACTOR_ROLES[name] })
    if (verdict !== 'allowed') continue
    test(
      `[profile] the ${name} lists the users the owner lists, of every status, in the same order`,
      covers('§3.list.allows', '§4.list.every-status', '§4.list.own-organization'),
      async (context) => {
        needActor(context, 'owner')
        needActor(context, name)
        // Other files change and delete their disposable users meanwhile: read both again until they agree.
        const [owners, theirs] = await untilSteady(
          () => Promise.all([listUsers('owner', { limit: 100 }), listUsers(name, { limit: 100 })]),
          ([a, b]) => a.meta.total === b.meta.total && sameIds(a.items, b.items),
        )
        const rule = `A ${ACTOR_ROLES[name]} lists the users of their organization, every status, as the owner does (docs/contract.md §3, §4)`
        expectRule(
          theirs.exchange,
          theirs.meta.total === owners.meta.total && sameIds(owners.items, theirs.items),
          rule,
          `Received: total ${theirs.meta.total}, first page [${theirs.items.map((user) => user.id).join(', ')}]\nExpected (the owner's): total ${owners.meta.total}, first page [${owners.items.map((user) => user.id).join(', ')}]`,
        )
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

function sameIds(a: ApiUser[], b: ApiUser[]): boolean {
  return a.length === b.length && a.every((user, index) => user.id === b[index]?.id)
}
