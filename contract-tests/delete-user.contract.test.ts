import { describe, test, type TestContext } from 'vitest'
import type { Exchange } from '../src/contract/exchange.js'
import type { DisposableUser } from '../src/contract/target.js'
import type { ApiUser } from './support/api-user.js'
import { expectProblem } from './support/expect-problem.js'
import { expectUnauthenticated } from './support/expect-unauthenticated.js'
import { probeDisposable, goneReason } from './support/disposable-user.js'
import { listUsers } from './support/read-users.js'
import { type DISPOSABLE_SLOTS, expectRule, needActor, needDisposable, needWrites, send } from './support/suite.js'
import { userPath } from './support/user-paths.js'

// CONTRACT §4, DELETE /api/users/{id}: the owner deletes one disposable user, the admin another. A
// deletion cannot be undone, so each happens once, by whichever check of its group runs first; the
// others (also when run alone, e.g. with `--only core`) wait for it and look at what is left.

interface Deletion {
  user: DisposableUser
  /** As the user saw themselves before the deletion (GET /api/users/me: core). */
  before: ApiUser
  exchange: Exchange
}

const DELETERS = [
  { deleter: 'owner', slot: 'deleteByOwner' },
  { deleter: 'admin', slot: 'deleteByAdmin' },
] as const satisfies Array<{ deleter: 'owner' | 'admin'; slot: keyof typeof DISPOSABLE_SLOTS }>

for (const { deleter, slot } of DELETERS) {
  describe.concurrent(`the ${deleter} deletes a user`, () => {
    let deletion: Promise<Deletion | undefined> | undefined

    /** The deletion, done once for the group; every check of the group needs what it needs. */
    async function deleted(context: TestContext): Promise<Deletion> {
      needWrites(context)
      needActor(context, 'owner')
      needActor(context, deleter)
      const user = needDisposable(context, slot)
      deletion ??= (async () => {
        const before = await probeDisposable(user)
        if (!before) return undefined
        const exchange = await send({ as: deleter, method: 'DELETE', path: userPath(user.id) })
        return { user, before, exchange }
      })()
      const done = await deletion
      if (!done) context.skip(goneReason())
      return done as Deletion
    }

    test(`[profile] the ${deleter} deletes another user: 204 with an empty body`, async (context) => {
      const { exchange } = await deleted(context)
      const rule = `An ${deleter} may delete a user who is not an owner: 204, no body (docs/contract.md §3, §4)`
      expectRule(
        exchange,
        exchange.response.status === 204,
        rule,
        `Received: ${exchange.response.status}\nExpected: 204`,
      )
      expectRule(
        exchange,
        exchange.response.text === '',
        rule,
        `Received: a body of ${exchange.response.text.length} characters`,
      )
    })

    test(`[profile] a user the ${deleter} deleted is a 404 for GET, PATCH and DELETE`, async (context) => {
      const { user } = await deleted(context)
      const rule = 'Afterwards GET and DELETE of that id answer 404 (docs/contract.md §4)'
      expectProblem(await send({ as: 'owner', path: userPath(user.id) }), 404, 'USER_NOT_FOUND', rule)
      const patch = await send({ as: 'owner', method: 'PATCH', path: userPath(user.id), json: { name: 'Gone' } })
      expectProblem(patch, 404, 'USER_NOT_FOUND', 'An id that does not exist is a 404 (docs/contract.md §3)')
      expectProblem(await send({ as: deleter, method: 'DELETE', path: userPath(user.id) }), 404, 'USER_NOT_FOUND', rule)
    })

    test(`[profile] a user the ${deleter} deleted is gone from the list`, async (context) => {
      const { user, before } = await deleted(context)
      const page = await listUsers('owner', { search: before.email, limit: 100 })
      const rule = 'A deleted user no longer appears in the list (docs/contract.md §4)'
      expectRule(page.exchange, !page.items.some((item) => item.id === user.id), rule, `Received: ${user.id} listed`)
    })

    test(`[core] the token of a user the ${deleter} deleted is refused: 401`, async (context) => {
      const { user } = await deleted(context)
      const exchange = await send({ as: user, path: '/api/users/me' })
      expectUnauthenticated(exchange, true, 'A user who was deleted loses access at once: 401 (docs/contract.md §2)')
    })
  })
}
