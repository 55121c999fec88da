import { describe, type TestContext } from 'vitest'
import type { Exchange } from '../src/contract/client/exchange.js'
import type { DisposableUser } from '../src/contract/target/target.js'
import type { ApiUser } from './support/api-user.js'
import { covers } from './support/covers.js'
import { expectProblem } from './support/expect-problem.js'
import { expectUnauthenticated } from './support/expect-unauthenticated.js'
import { probeDisposable, goneReason } from './support/disposable-user.js'
import { listUsers } from './support/read-users.js'
import {
  type DISPOSABLE_SLOTS,
  expectRule,
  expectStatus,
  needActor,
  needDisposable,
  needWrites,
  send,
  test,
} from './support/suite.js'
import { userPath } from './support/user-paths.js'

// CONTRACT §4, DELETE /api/users/{id}: the owner deletes another owner (a disposable user the owner
// promotes first: owners act on owners), the admin a viewer, and the owner a SUSPENDED user (users of
// every status can be deleted). A deletion cannot be undone, so each happens once, by whichever check
// of its group runs first; the others (also when run alone, e.g. with `--only core`) wait for it and
// look at what is left.

interface Deletion {
  user: DisposableUser
  /** As the user saw themselves before the deletion (GET /api/users/me: core). */
  before: ApiUser
  exchange: Exchange
}

const DELETIONS = [
  { deleter: 'owner', whom: 'another owner', slot: 'deleteByOwner', setUp: { role: 'CLIENT_OWNER' } },
  { deleter: 'admin', whom: 'a viewer', slot: 'deleteByAdmin', setUp: undefined },
  { deleter: 'owner', whom: 'a SUSPENDED user', slot: 'deleteSuspended', setUp: { status: 'SUSPENDED' } },
] as const satisfies Array<{
  deleter: 'owner' | 'admin'
  whom: string
  slot: keyof typeof DISPOSABLE_SLOTS
  setUp: Record<string, string> | undefined
}>

for (const { deleter, whom, slot, setUp } of DELETIONS) {
  describe.concurrent(`the ${deleter} deletes ${whom}`, () => {
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
        if (setUp) {
          const change = await send({ as: 'owner', method: 'PATCH', path: userPath(user.id), json: setUp })
          expectStatus(change, 200, `Setting up: the owner makes a disposable user ${whom} (docs/contract.md §3)`)
        }
        // The list the gone-from-the-list check reads, read once before: a list remembered (cached) from
        // before the deletion is no answer after it.
        await listUsers('owner', { search: before.email, limit: 100 })
        const exchange = await send({ as: deleter, method: 'DELETE', path: userPath(user.id) })
        // A refused deletion leaves the set-up in place: put the disposable user back as it was.
        if (setUp && exchange.response.status !== 204) {
          const { role, status } = before
          await send({ as: 'owner', method: 'PATCH', path: userPath(user.id), json: { role, status } })
        }
        return { user, before, exchange }
      })()
      const done = await deletion
      if (!done) context.skip(goneReason())
      return done as Deletion
    }

    test(
      `[profile] the ${deleter} deletes ${whom}: 204 with an empty body`,
      covers('§3.delete.allows', '§4.delete.exists', '§4.delete.answer'),
      async (context) => {
        const { exchange } = await deleted(context)
        const rule = `An ${deleter} may delete ${whom}: 204, no body (docs/contract.md §3, §4)`
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
      },
    )

    test(
      `[profile] after the ${deleter} deleted ${whom}, GET, PATCH and DELETE of the id are a 404`,
      covers('§4.delete.after'),
      async (context) => {
        const { user } = await deleted(context)
        const rule = 'Afterwards GET and DELETE of that id answer 404 (docs/contract.md §4)'
        expectProblem(await send({ as: 'owner', path: userPath(user.id) }), 404, 'USER_NOT_FOUND', rule)
        const patch = await send({ as: 'owner', method: 'PATCH', path: userPath(user.id), json: { name: 'Gone' } })
        expectProblem(patch, 404, 'USER_NOT_FOUND', 'An id that does not exist is a 404 (docs/contract.md §3)')
        const again = await send({ as: deleter, method: 'DELETE', path: userPath(user.id) })
        expectProblem(again, 404, 'USER_NOT_FOUND', rule)
      },
    )

    test(
      `[profile] after the ${deleter} deleted ${whom}, the user is gone from the list, also from the one read just before`,
      covers('§4.delete.after'),
      async (context) => {
        const { user, before } = await deleted(context)
        const page = await listUsers('owner', { search: before.email, limit: 100 })
        const rule = 'A deleted user no longer appears in the list (docs/contract.md §4)'
        expectRule(page.exchange, !page.items.some((item) => item.id === user.id), rule, `Received: ${user.id} listed`)
      },
    )

    // A SUSPENDED user's token is refused already (§2): only an ACTIVE user's shows the deletion.
    if (!setUp || !('status' in setUp)) {
      test(
        `[core] after the ${deleter} deleted ${whom}, their token is refused: 401`,
        covers('§2.deleted-token', '§4.delete.after'),
        async (context) => {
          const { user } = await deleted(context)
          const exchange = await send({ as: user, path: '/api/users/me' })
          expectUnauthenticated(
            exchange,
            true,
            'A user who was deleted loses access at once: 401 (docs/contract.md §2)',
          )
        },
      )
    }
  })
}
