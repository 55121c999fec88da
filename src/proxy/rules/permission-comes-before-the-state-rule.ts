import { decidePermission } from '../../contract/rules/permission-table.js'
import { isRole, type Role } from '../../spec/roles.js'
import { toConflict, type Conflict } from '../conflict-book.js'
import type { Knowledge } from '../knowledge.js'
import { dataOf, operationOf, statusOf, tokenOf, type ObservedExchange } from '../observed-exchange.js'
import type { SeenUser } from '../users-in-answer.js'
import { defineRule, found, type RuleFinding } from './define-rule.js'

export const permissionComesBeforeTheStateRule = defineRule({
  name: 'permission-comes-before-the-state-rule',
  rule: "A PATCH the permission table refuses the caller is a 403, never a 409: permission is step 7 of §3's order, the state rule step 8 (docs/contract.md §3)",
  observe(observed, knowledge) {
    const token = tokenOf(observed)
    if (token === undefined || observed.refusal) return []
    // The token's /me, come after its 409s: who sent them, unless a write through the proxy came in between.
    if (operationOf(observed) === 'getCurrentUser' && statusOf(observed) === 200)
      return judgeEarlierConflicts(observed, knowledge, token)
    if (operationOf(observed) !== 'updateUser' || statusOf(observed) !== 409) return []
    const callerId = knowledge.callers.get(token).userId
    const caller =
      callerId === undefined ? undefined : knowledge.users.sureSnapshot(callerId, observed, [observed.startedAt])
    const conflict = toConflict(observed, knowledge.users)
    if (!caller || !conflict) return []
    return judgeConflict(conflict, caller, 'their GET /api/users/me, with no write through the proxy since')
  },
})

function judgeEarlierConflicts(observed: ObservedExchange, knowledge: Knowledge, token: string): RuleFinding[] {
  const me = dataOf(observed) as SeenUser | undefined
  if (typeof me?.id !== 'string') return []
  for (const conflict of knowledge.conflicts.of(token)) {
    if (knowledge.users.writes.changedBetween(me.id, conflict.startedAt, observed.endedAt, [conflict.startedAt]))
      continue
    const findings = judgeConflict(
      conflict,
      me,
      'this GET /api/users/me of the same token, with no write through the proxy in between',
    )
    if (findings.length > 0) return findings
  }
  return []
}

/** The 409 by a caller of known role and status: a violation when the table refuses them. */
function judgeConflict(conflict: Conflict, caller: SeenUser, known: string): RuleFinding[] {
  if (!isRole(caller.role) || caller.status !== 'ACTIVE') return []
  const role: Role = caller.role
  const self = conflict.userId === caller.id
  const { verdict, sentence } = decidePermission({
    operation: 'update',
    caller: role,
    self,
    patch: conflict.patch,
    ...(conflict.target ? { target: conflict.target } : {}),
  })
  if (verdict !== 'refused') return []
  return found(
    [sentence, '§3.order.403-before-409'],
    `Received: 409 for ${conflict.request} by a ${role}${self ? ' on themselves' : ''} (known from ${known})\nExpected: 403: the table refuses it, and permission (step 7 of §3's order) comes before the state rule (step 8)`,
  )
}
