import { describe, type TestContext } from 'vitest'
import type { DisposableUser } from '../src/contract/target/target.js'
import { holdsTerm, ROLES, userOf, type ApiUser, type Role } from './support/api-user.js'
import { covers } from './support/covers.js'
import { expectExactAnswers, readFilters, sameList, termsOf } from './support/exact-filters.js'
import { listUsers, type ListQuery } from './support/read-users.js'
import { prepareDisposable } from './support/restore-user.js'
import { expectRule, expectStatus, needActor, send, test } from './support/suite.js'
import { randomText, userPath } from './support/user-paths.js'

// CONTRACT §4: the list's search and role filter answer the users as they are now, after renames and
// role changes too, and the two filters together answer exactly what each allows. One disposable user
// is renamed and given another role, then put back. It borrows update-user's slot: the slot table is in
// src/target/disposable-slots.ts, and verify runs test files one after another in one worker.
// Sequential: every check changes the same user.

/** Past this many matches the suite would have to walk pages; the checks that need all matches skip. */
const ONE_PAGE = 100

describe('the list follows PATCH (docs/contract.md §4)', () => {
  test(
    '[core] after a rename, search finds the user by the new name, in any case, and no longer by the old one',
    covers('§4.list.search', '§4.patch.attributes'),
    async (context) => {
      const user = await prepareDisposable(context, 'update')
      const original = await readAsOwner(user)
      const first = `qa${randomText(10)}`
      const second = `qb${randomText(10)}`
      await rename(user, `Index ${first}`)
      await expectFound(context, { search: first }, user, true, 'search finds a user by their name')
      // Asked before the rename, so that an answer kept from before cannot pass for the new one.
      await expectFound(context, { search: second }, user, false, 'search finds no user by a name nobody has')
      const renamed = await rename(user, `Index ${second}`)
      await expectFound(context, { search: second.toUpperCase() }, user, true, 'search finds a user by their new name')
      await expectFound(context, { search: first }, user, false, 'search no longer finds a user by their old name')
      // Short terms too: an implementation may index parts of names.
      for (const [term, held] of shortTermsOf(first, second, renamed)) {
        await expectFound(context, { search: term }, user, held, `search "${term}" follows the rename`)
      }
      // Everyone else who shares a part of the old or the new name is still found by it, and nobody more.
      const terms = [...new Set([...termsOf(original.name), ...termsOf(renamed.name)])]
      const reading = await readFilters(context, () => terms.map((search) => ({ search })))
      expectExactAnswers(reading, 'after a rename')
    },
  )

  // Lower-casing is Unicode's, not ASCII's: Ä, Ö, Ø and É have one lower-case letter each, in every locale.
  test(
    '[profile] search ignores case beyond ASCII too: ÅNGSTRÖM finds Ångström, and ångström finds ÅNGSTRÖM',
    covers('§4.list.search'),
    async (context) => {
      const user = await prepareDisposable(context, 'update')
      const tail = randomText(8)
      await rename(user, `Zoë Ångström${tail}`)
      for (const search of [`ÅNGSTRÖM${tail.toUpperCase()}`, `ångström${tail}`, `ZOË ÅNGSTRÖM${tail}`]) {
        await expectFound(context, { search }, user, true, `search "${search}" finds "Zoë Ångström${tail}"`)
      }
      await rename(user, `ØRSTED ÉLODIE${tail.toUpperCase()}`)
      await expectFound(
        context,
        { search: `ørsted élodie${tail}` },
        user,
        true,
        'search finds upper-case letters beyond ASCII',
      )
      await expectFound(context, { search: `Ångström${tail}` }, user, false, 'search no longer finds the old name')
    },
  )

  // Lower-cased, and nothing more: a collation that ignores accents finds "Zoë" by "zoe". Ë and É have one
  // lower case in every mapping and locale (İ and Σ, whose lower case depends on the mapping, are left out).
  test(
    '[profile] search folds case and nothing more: ZOË finds Zoë, but zoe does not, nor zoë Zoe',
    covers('§4.list.search', '§4.list.search.lower-case'),
    async (context) => {
      const user = await prepareDisposable(context, 'update')
      const tail = randomText(8)
      const rule = 'search lower-cases both sides and nothing more: accents stay'
      await rename(user, `Zoë Élan${tail}`)
      await expectFound(context, { search: `ZOË ÉLAN${tail.toUpperCase()}` }, user, true, `${rule}: "ZOË" finds "Zoë"`)
      for (const search of [`zoe elan${tail}`, `Zoe Élan${tail}`, `zoë elan${tail}`]) {
        await expectFound(context, { search }, user, false, `${rule}: "${search}" does not find "Zoë Élan${tail}"`)
      }
      await rename(user, `Zoe Elan${tail}`)
      await expectFound(context, { search: `zoë élan${tail}` }, user, false, `${rule}: "zoë" does not find "Zoe"`)
      await expectFound(context, { search: `ZOE ELAN${tail.toUpperCase()}` }, user, true, `${rule}: "ZOE" finds "Zoe"`)
    },
  )

  test(
    '[core] after a role change, the role filter lists the user under the new role only; a status change moves nobody',
    covers('§4.list.role', '§4.list.every-status', '§4.patch.attributes'),
    async (context) => {
      const user = await prepareDisposable(context, 'update')
      const before = await readAsOwner(user)
      const other: Role = before.role === 'CLIENT_ADMIN' ? 'BOT_USER' : 'CLIENT_ADMIN'
      const byEmail = { search: before.email }
      // Asked before the change: an answer kept from before must not outlive it.
      await expectFound(context, { ...byEmail, role: other }, user, false, `role=${other} lists no ${before.role}`)
      const changed = await send(patchOf(user, { role: other }))
      expectStatus(changed, 200, 'PATCH sets role (docs/contract.md §4)')
      await expectFound(context, { ...byEmail, role: other }, user, true, `role=${other} lists a user made ${other}`)
      await expectFound(context, { ...byEmail, role: before.role }, user, false, 'role= no longer lists the old role')
      await expectFound(context, { role: other }, user, true, `role=${other} alone lists a user made ${other}`)
      const suspended = await send(patchOf(user, { status: 'SUSPENDED' }))
      expectStatus(suspended, 200, 'PATCH sets status (docs/contract.md §4)')
      await expectFound(context, { ...byEmail, role: other }, user, true, 'The list holds users of every status')
      await expectFound(context, byEmail, user, true, 'The list holds users of every status')
      expectExactAnswers(await readFilters(context, () => ROLES.map((role) => ({ role }))), 'after a role change')
    },
  )
})

describe.concurrent('role and search together (docs/contract.md §4)', () => {
  for (const term of ['a', 'an', 'e.', 'example']) {
    test(
      `[core] role and search "${term}" answer exactly the users of that role whose name or email contains it`,
      covers('§4.list.role', '§4.list.search'),
      async (context) => {
        needActor(context, 'owner')
        for (const role of ROLES) {
          const ofRole = await listUsers('owner', { role, limit: ONE_PAGE })
          if (ofRole.meta.total > ONE_PAGE) continue
          const both = await listUsers('owner', { role, search: term, limit: ONE_PAGE })
          const expected = ofRole.items.filter((item) => holdsTerm(item, term)).map((item) => item.id)
          const received = both.items.map((item) => item.id)
          expectRule(
            both.exchange,
            sameList(received, expected),
            `role and search keep the users who pass both filters (docs/contract.md §4)`,
            `Received: ${received.length} users [${received.join(', ')}]\nExpected: the ${expected.length} of the ${ofRole.items.length} users of role=${role} whose name or email contains "${term}" [${expected.join(', ')}]`,
          )
        }
      },
    )
  }
})

function patchOf(user: DisposableUser, json: Record<string, unknown>): Parameters<typeof send>[0] {
  return { as: 'owner', method: 'PATCH', path: userPath(user.id), json }
}

async function rename(user: DisposableUser, name: string): Promise<ApiUser> {
  const exchange = await send(patchOf(user, { name }))
  expectStatus(exchange, 200, 'PATCH sets name (docs/contract.md §4)')
  return userOf(exchange)
}

async function readAsOwner(user: DisposableUser): Promise<ApiUser> {
  const exchange = await send({ as: 'owner', path: userPath(user.id) })
  expectStatus(exchange, 200, 'A member of the caller organization can be read by id (docs/contract.md §4)')
  return userOf(exchange)
}

/**
 * Whether the first page lists the user, as `held` says it should. When more users match than a page
 * holds, only "found" can be judged (a user missing from page 1 may be on page 2): the check skips.
 */
async function expectFound(
  context: TestContext,
  query: ListQuery,
  user: DisposableUser,
  held: boolean,
  rule: string,
): Promise<void> {
  const page = await listUsers('owner', { ...query, limit: ONE_PAGE })
  const found = page.items.some((item) => item.id === user.id)
  if (!found && page.meta.total > ONE_PAGE) context.skip(`more than ${ONE_PAGE} users match ${JSON.stringify(query)}`)
  expectRule(
    page.exchange,
    found === held,
    `${rule} (docs/contract.md §4)`,
    `Received: ${user.id} ${found ? 'listed' : 'not listed'} for ${JSON.stringify(query)}\nExpected: ${held ? 'listed' : 'not listed'}`,
  )
}

/**
 * Terms of one to three characters from the old and the new name, with whether the renamed user should
 * match them: those of the new name must, those only the old name had must not.
 */
function shortTermsOf(first: string, second: string, renamed: ApiUser): Array<[string, boolean]> {
  const terms: Array<[string, boolean]> = [
    [second.slice(2, 5), true],
    [second.slice(5, 7), true],
    [second.slice(8, 9), true],
  ]
  for (const term of [first.slice(2, 5), first.slice(5, 7)]) {
    if (!holdsTerm(renamed, term)) terms.push([term, false])
  }
  return terms
}
