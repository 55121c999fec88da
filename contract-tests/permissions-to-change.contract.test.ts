import { describe, type TestContext } from 'vitest'
import type { ActorName, DisposableUser } from '../src/contract/target/target.js'
import { decidePermission } from '../src/contract/rules/permission-table.js'
import { ACTOR_ROLES, MEMBER_NAMES, userOf, type ApiUser, type MemberName, type Role } from './support/api-user.js'
import { covers } from './support/covers.js'
import { expectProblem } from './support/expect-problem.js'
import { readMe, readUser } from './support/read-users.js'
import { prepareDisposable } from './support/restore-user.js'
import { expectRule, expectStatus, needActor, needWrites, send, test } from './support/suite.js'
import { userPath } from './support/user-paths.js'
import type { SentenceId } from '../src/contract/rules/contract-sentences.js'

// CONTRACT §3, the changing rows of the table, for every role, and "nobody acts on themselves". Every
// change is aimed at this file's disposable user (a CLIENT_VIEWER), promoted by the owner where the
// rule is about another role, and put back afterwards. Deleting for real is delete-user's job.

interface ChangeCase {
  rule: string
  /** Who asks: a member actor, or the disposable user itself. */
  by: MemberName | 'self'
  change: Change
  /** The disposable user's role during the check (the owner promotes it first). */
  as: Role | undefined
  expected: 200 | 403
}

type Change = { name?: string; role?: Role; status?: string } | 'DELETE'

const RENAME = { name: 'Permission Check' }
const SUSPEND = { status: 'SUSPENDED' }
const DELETE = 'DELETE'
const toRole = (role: Role): Change => ({ role })
// A rename is allowed and the role is the current one: only "nobody sets their own role" refuses it.
const OWN_ROLE: Change = { ...RENAME, role: 'CLIENT_OWNER' }

/**
 * A case of §3's table: the answer it expects (200 or 403) is the contract's permission table's
 * (src/contract/rules/permission-table.ts, which the proxy judges live traffic by too), for the caller's role
 * and the disposable user's, a CLIENT_VIEWER unless `as` says otherwise.
 */
const tableCase = (rule: string, by: ChangeCase['by'], change: Change, as?: Role): ChangeCase => {
  const expected = expectedByTheTable(by, change, as ?? 'CLIENT_VIEWER')
  return { rule: `${rule}: ${expected}`, by, change, as, expected }
}

function expectedByTheTable(by: ChangeCase['by'], change: Change, target: Role): 200 | 403 {
  const self = by === 'self'
  const caller = by === 'self' ? target : ACTOR_ROLES[by]
  const { verdict } =
    change === 'DELETE'
      ? decidePermission({ operation: 'delete', caller, self, target })
      : decidePermission({ operation: 'update', caller, self, target, patch: change })
  return verdict === 'allowed' ? 200 : 403
}

// prettier-ignore
const CASES: ChangeCase[] = [
  tableCase('the owner may rename another user', 'owner', RENAME),
  tableCase('the owner may rename another owner', 'owner', RENAME, 'CLIENT_OWNER'),
  tableCase('an owner may rename themselves', 'self', RENAME, 'CLIENT_OWNER'),
  tableCase('an admin may rename a non-owner', 'admin', RENAME),
  tableCase('an admin may rename another admin', 'admin', RENAME, 'CLIENT_ADMIN'),
  tableCase('an admin may rename a bot', 'admin', RENAME, 'BOT_USER'),
  tableCase('an admin may rename themselves', 'self', RENAME, 'CLIENT_ADMIN'),
  tableCase('an admin may not rename an owner', 'admin', RENAME, 'CLIENT_OWNER'),
  tableCase('a viewer may rename themselves', 'self', RENAME),
  tableCase('a viewer may not rename another user', 'viewer', RENAME),
  tableCase('a bot may rename itself', 'self', RENAME, 'BOT_USER'),
  tableCase('a bot may not rename another user', 'bot', RENAME),

  tableCase('the owner may change the role of another user', 'owner', toRole('CLIENT_ADMIN')),
  tableCase('the owner may make another user an owner', 'owner', toRole('CLIENT_OWNER')),
  tableCase('the owner may change the status of another user', 'owner', SUSPEND),
  tableCase('the owner may change the role of another owner', 'owner', toRole('CLIENT_VIEWER'), 'CLIENT_OWNER'),
  tableCase('the owner may change the status of another owner', 'owner', SUSPEND, 'CLIENT_OWNER'),
  tableCase('the owner may change the role of a bot', 'owner', toRole('CLIENT_ADMIN'), 'BOT_USER'),
  tableCase('an admin may change the role of a non-owner', 'admin', toRole('BOT_USER')),
  tableCase('an admin may change the status of a non-owner', 'admin', SUSPEND),
  tableCase('an admin may change the role of another admin', 'admin', toRole('CLIENT_VIEWER'), 'CLIENT_ADMIN'),
  tableCase('an admin may change the status of another admin', 'admin', SUSPEND, 'CLIENT_ADMIN'),
  tableCase('an admin may change the role of a bot', 'admin', toRole('CLIENT_VIEWER'), 'BOT_USER'),
  tableCase('an admin may change the status of a bot', 'admin', SUSPEND, 'BOT_USER'),
  tableCase('an admin may not make anyone an owner', 'admin', toRole('CLIENT_OWNER')),
  tableCase('an admin may not change the role of an owner', 'admin', toRole('CLIENT_ADMIN'), 'CLIENT_OWNER'),
  tableCase('an admin may not change the status of an owner', 'admin', SUSPEND, 'CLIENT_OWNER'),
  tableCase('a viewer may not change the role of a user', 'viewer', toRole('CLIENT_ADMIN')),
  tableCase('a viewer may not change the status of a user', 'viewer', SUSPEND),
  tableCase('a bot may not change the role of a user', 'bot', toRole('CLIENT_ADMIN')),
  tableCase('a bot may not change the status of a user', 'bot', SUSPEND),

  tableCase('a viewer may not delete a user', 'viewer', DELETE),
  tableCase('a bot may not delete a user', 'bot', DELETE),
  tableCase('an admin may not delete an owner', 'admin', DELETE, 'CLIENT_OWNER'),
  // That owners (also of owners) and admins may delete is delete-user.contract.test.ts's, which owns users to lose.

  tableCase('an owner may not change their own role', 'self', toRole('CLIENT_ADMIN'), 'CLIENT_OWNER'),
  tableCase('an owner may not change their own status', 'self', SUSPEND, 'CLIENT_OWNER'),
  tableCase('an admin may not change their own role', 'self', toRole('CLIENT_VIEWER'), 'CLIENT_ADMIN'),
  tableCase('an admin may not change their own status', 'self', SUSPEND, 'CLIENT_ADMIN'),
  tableCase('a viewer may not change their own role', 'self', toRole('CLIENT_ADMIN')),
  tableCase('a bot may not change its own status', 'self', SUSPEND, 'BOT_USER'),
  tableCase('an owner may not rename themselves with their current role in the body', 'self', OWN_ROLE, 'CLIENT_OWNER'),
  tableCase('an owner may not delete themselves', 'self', DELETE, 'CLIENT_OWNER'),
  tableCase('an admin may not delete themselves', 'self', DELETE, 'CLIENT_ADMIN'),
  tableCase('a viewer may not delete themselves', 'self', DELETE),
  tableCase('a bot may not delete itself', 'self', DELETE, 'BOT_USER'),
]

// Sequential: every case changes the same disposable user.
describe('who may change and delete whom (docs/contract.md §3)', () => {
  for (const check of CASES)
    test(`[profile] ${check.rule}`, covers(...sentencesOf(check)), async (context) => {
      const user = await prepare(context, check.by)
      if (check.as) await promote(user, check.as)
      const before = await readUser('owner', user.id)
      const as = check.by === 'self' ? user : check.by
      const exchange =
        check.change === 'DELETE'
          ? await send({ as, method: 'DELETE', path: userPath(user.id) })
          : await send({ as, method: 'PATCH', path: userPath(user.id), json: check.change })
      const rule = `${check.rule.replace(/: \d+$/, '')} (docs/contract.md §3)`
      if (check.expected === 403) {
        expectProblem(exchange, 403, 'FORBIDDEN', rule)
        await expectUnchanged(before, 'A refused change changes nothing (docs/contract.md §3)')
        return
      }
      expectStatus(exchange, 200, rule)
      const after = userOf(exchange)
      const changed = Object.entries(check.change).every(([key, value]) => after[key as keyof ApiUser] === value)
      expectRule(
        exchange,
        changed,
        'The 200 answers the user after the change (docs/contract.md §4)',
        `Received: ${JSON.stringify(after)}`,
      )
    })
})

// Non-disposable actors, so only with their current values: a broken backend answering 200 changes nothing.
describe('nobody sets their own role or status, even to the current value', () => {
  for (const name of MEMBER_NAMES) {
    for (const key of ['role', 'status'] as const) {
      test(
        `[profile] the ${name} may not set their own ${key}, even to the current one: 403`,
        covers('§3.self.role-status'),
        async (context) => {
          needWrites(context)
          needActor(context, name)
          const me = await readMe(name)
          const exchange = await send({ as: name, method: 'PATCH', path: userPath(me.id), json: { [key]: me[key] } })
          expectProblem(
            exchange,
            403,
            'FORBIDDEN',
            `Nobody changes their own ${key}, even to the current value (docs/contract.md §3)`,
          )
        },
      )
    }
  }
})

/** The sentences of docs/contract.md §3 a case proves: its row of the table and direction, or a rule for everyone. */
function sentencesOf({ by, change, as, expected }: ChangeCase): SentenceId[] {
  const onOwner: SentenceId[] = as === 'CLIENT_OWNER' && expected === 403 ? ['§4.delete.active-owner-stays'] : []
  if (change === 'DELETE') {
    if (by === 'self') return ['§3.self.delete', '§4.delete.active-owner-stays']
    return [expected === 200 ? '§3.delete.allows' : '§3.delete.refuses', ...onOwner]
  }
  if (by === 'self' && ('role' in change || 'status' in change)) return ['§3.self.role-status', ...onOwner]
  const [allows, refuses] =
    'role' in change || 'status' in change
      ? (['§3.role-status.allows', '§3.role-status.refuses'] as const)
      : (['§3.name.allows', '§3.name.refuses'] as const)
  return expected === 200 ? [allows, '§4.patch.answer'] : [refuses, ...onOwner]
}

async function prepare(context: TestContext, by: ActorName | 'self'): Promise<DisposableUser> {
  if (by !== 'self') needActor(context, by)
  return prepareDisposable(context, 'permissions')
}

async function promote(user: DisposableUser, role: Role): Promise<void> {
  const exchange = await send({ as: 'owner', method: 'PATCH', path: userPath(user.id), json: { role } })
  expectStatus(exchange, 200, `Setting up: the owner makes the disposable user a ${role} (docs/contract.md §3)`)
}

async function expectUnchanged(before: ApiUser, rule: string): Promise<void> {
  const exchange = await send({ as: 'owner', path: userPath(before.id) })
  expectStatus(exchange, 200, rule)
  const after = userOf(exchange)
  const same = after.name === before.name && after.role === before.role && after.status === before.status
  const show = (user: ApiUser): string => `${user.name} / ${user.role} / ${user.status}`
  expectRule(exchange, same, rule, `Received: ${show(after)}\nExpected: ${show(before)}`)
}
