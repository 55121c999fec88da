import { FRESH_MS } from '../fresh-answers.js'
import { dataOf, operationOf, succeeded, type ObservedExchange } from '../observed-exchange.js'
import type { Knowledge } from '../knowledge.js'
import { readPatchBody } from '../patch-body.js'
import { usersInAnswer } from '../users-in-answer.js'
import { defineRule, found, type RuleFinding } from './define-rule.js'

export const invitedUsersKeepTheirStatus = defineRule({
  name: 'invited-users-keep-their-status',
  rule: 'PATCH never changes the status of an INVITED user: 409 (docs/contract.md §4)',
  observe(observed, knowledge) {
    return judgeAShownInvitedUser(observed, knowledge) ?? judgeAChangeOfAnInvitedUser(observed, knowledge)
  },
})

/** A user shown INVITED after a PATCH of their status was answered 2xx was INVITED when it came. */
function judgeAShownInvitedUser(observed: ObservedExchange, knowledge: Knowledge): RuleFinding[] | undefined {
  for (const user of usersInAnswer(observed)) {
    const claim = user.status === 'INVITED' ? knowledge.claims.statusSet.get(user.id) : undefined
    if (!claim || claim.endedAt >= observed.startedAt) continue
    return found(
      '§4.patch.409',
      `Received: ${user.id} INVITED in this answer, after ${claim.request} was answered with a success\nExpected: 409 for that PATCH: nothing makes a user INVITED again, so they were INVITED when it came`,
    )
  }
  return undefined
}

/** A PATCH of the status of a user an answer just showed INVITED, with no write through the proxy since. */
function judgeAChangeOfAnInvitedUser(observed: ObservedExchange, knowledge: Knowledge): RuleFinding[] {
  const { userId } = observed
  if (operationOf(observed) !== 'updateUser' || !succeeded(observed) || observed.refusal || userId === undefined)
    return []
  if (!('status' in (readPatchBody(observed) ?? {}))) return []
  const before = knowledge.users.sureSnapshot(userId, observed, [observed.startedAt])
  const seen = knowledge.users.latest(userId)
  if (before?.status !== 'INVITED' || !seen) return []
  const ago = Math.round(knowledge.now() - seen.seenAt)
  if (ago > FRESH_MS) return []
  const after = (dataOf(observed) as { status?: unknown } | undefined)?.status
  return found(
    '§4.patch.409',
    `Received: ${observed.exchange.response.status} for PATCH ${observed.path} ${observed.exchange.request.body ?? ''} (the answer shows ${String(after)})\nExpected: 409 (or 403 if the table refuses the caller): an answer ${ago} ms before showed ${userId} INVITED, and no write through the proxy came since`,
  )
}
