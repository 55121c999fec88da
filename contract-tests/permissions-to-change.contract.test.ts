import { describe, type TestContext } from 'vitest'
import type { ActorName, DisposableUser } from '../src/contract/target.js'
import { MEMBER_NAMES, userOf, type ApiUser, type Role } from './support/api-user.js'
import { covers } from './support/covers.js'
import { expectProblem } from './support/expect-problem.js'
import { readMe, readUser } from './support/read-users.js'
import { prepareDisposable } from './support/restore-user.js'
import { expectRule, expectStatus, needActor, needWrites, send, test } from './support/suite.js'
import { userPath } from './support/user-paths.js'
import type { SentenceId } from '../src/contract/contract-sentences.js'

// CONTRACT §3, the changing rows of the table, for every role, and "nobody acts on themselves". Every
// change is aimed at this file's disposable user (a CLIENT_VIEWER), promoted by the owner where the
// rule is about another role, and put back afterwards. Deleting for real is delete-user's job.

interface ChangeCase {
  rule: string
  /** Who asks: an actor, or the disposable user itself. */
  by: ActorName | 'self'
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

const allowed = (rule: string, by: ChangeCase['by'], change: Change, as?: Role): ChangeCase => ({
  rule: `${rule}: 200`,
  by,
  change,
  as,
  expected: 200,
})
const refused = (rule: string, by: ChangeCase['by'], change: Change, as?: Role): ChangeCase => ({
  rule: `${rule}: 403`,
  by,
  change,
  as,
  expected: 403,
})

// prettier-ignore
const CASES: ChangeCase[] = [
  allowed('the owner may rename another user', 'owner', RENAME),
  allowed('the owner may rename another owner', 'owner', RENAME, 'CLIENT_OWNER'),
  allowed('an owner may rename themselves', 'self', RENAME, 'CLIENT_OWNER'),
  allowed('an admin may rename a non-owner', 'admin', RENAME),
  allowed('an admin may rename another admin', 'admin', RENAME, 'CLIENT_ADMIN'),
  allowed('an admin may rename a bot', 'admin', RENAME, 'BOT_USER'),
  allowed('an admin may rename themselves', 'self', RENAME, 'CLIENT_ADMIN'),
  refused('an admin may not rename an owner', 'admin', RENAME, 'CLIENT_OWNER'),
  allowed('a viewer may rename themselves', 'self', RENAME),
  refused('a viewer may not rename another user', 'viewer', RENAME),
  allowed('a bot may rename itself', 'self', RENAME, 'BOT_USER'),
  refused('a bot may not rename another user', 'bot', RENAME),

  allowed('the owner may change the role of another user', 'owner', toRole('CLIENT_ADMIN')),
  allowed('the owner may make another user an owner', 'owner', toRole('CLIENT_OWNER')),
  allowed('the owner may change the status of another user', 'owner', SUSPEND),
  allowed('the owner may change the role of another owner', 'owner', toRole('CLIENT_VIEWER'), 'CLIENT_OWNER'),
  allowed('the owner may change the status of another owner', 'owner', SUSPEND, 'CLIENT_OWNER'),
  allowed('the owner may change the role of a bot', 'owner', toRole('CLIENT_ADMIN'), 'BOT_USER'),
  allowed('an admin may change the role of a non-owner', 'admin', toRole('BOT_USER')),
  allowed('an admin may change the status of a non-owner', 'admin', SUSPEND),
  allowed('an admin may change the role of another admin', 'admin', toRole('CLIENT_VIEWER'), 'CLIENT_ADMIN'),
  allowed('an admin may change the status of another admin', 'admin', SUSPEND, 'CLIENT_ADMIN'),
  allowed('an admin may change the role of a bot', 'admin', toRole('CLIENT_VIEWER'), 'BOT_USER'),
  allowed('an admin may change the status of a bot', 'admin', SUSPEND, 'BOT_USER'),
  refused('an admin may not make anyone an owner', 'admin', toRole('CLIENT_OWNER')),
  refused('an admin may not change the role of an owner', 'admin', toRole('CLIENT_ADMIN'), 'CLIENT_OWNER'),
  refused('an admin may not change the status of an owner', 'admin', SUSPEND, 'CLIENT_OWNER'),
  refused('a viewer may not change the role of a user', 'viewer', toRole('CLIENT_ADMIN')),
  refused('a viewer may not change the status of a user', 'viewer', SUSPEND),
  refused('a bot may not change the role of a user', 'bot', toRole('CLIENT_ADMIN')),
  refused('a bot may not change the status of a user', 'bot', SUSPEND),

  refused('a viewer may not delete a user', 'viewer', DELETE),
  refused('a bot may not delete a user', 'bot', DELETE),
  refused('an admin may not delete an owner', 'admin', DELETE, 'CLIENT_OWNER'),
  // That owners (also of owners) and admins may delete is delete-user.contract.test.ts's, which owns users to lose.

  refused('an owner may not change their own role', 'self', toRole('CLIENT_ADMIN'), 'CLIENT_OWNER'),
  refused('an owner may not change their own status', 'self', SUSPEND, 'CLIENT_OWNER'),
  refused('an admin may not change their own role', 'self', toRole('CLIENT_VIEWER'), 'CLIENT_ADMIN'),
  refused('an admin may not change their own status', 'self', SUSPEND, 'CLIENT_ADMIN'),
  refused('a viewer may not change their own role', 'self', toRole('CLIENT_ADMIN')),
  refused('a bot may not change its own status', 'self', SUSPEND, 'BOT_USER'),
  refused('an owner may not rename themselves with their current role in the body', 'self', OWN_ROLE, 'CLIENT_OWNER'),
  refused('an owner may not delete themselves', 'self', DELETE, 'CLIENT_OWNER'),
  refused('an admin may not delete themselves', 'self', DELETE, 'CLIENT_ADMIN'),
  refused('a viewer may not delete themselves', 'self', DELETE),
  refused('a bot may not delete itself', 'self', DELETE, 'BOT_USER'),
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
