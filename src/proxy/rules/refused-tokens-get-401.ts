import type { SentenceId } from '../../contract/rules/contract-sentences.js'
import type { Knowledge } from '../knowledge.js'
import { operationOf, succeeded, tokenOf, type ObservedExchange } from '../observed-exchange.js'
import { usersInAnswer, type SeenUser } from '../users-in-answer.js'
import { defineRule, found, type RuleFinding } from './define-rule.js'

/** The statuses whose users' tokens are refused (docs/contract.md §2). */
const REFUSED: Record<string, SentenceId> = { SUSPENDED: '§2.suspended-token', INVITED: '§2.invited-token' }

/** Reads: their answer shows the caller as the request found them (a PATCH may change its own target). */
const READS = ['getCurrentUser', 'getUser', 'listUsers']

export const refusedTokensGet401 = defineRule({
  name: 'refused-tokens-get-401',
  rule: 'The token of a deleted, SUSPENDED or INVITED user gets 401, never an answer (docs/contract.md §2)',
  observe(observed, knowledge) {
    const token = tokenOf(observed)
    if (!succeeded(observed) || token === undefined) return []
    const shown = judgeTheCallerShown(observed, knowledge)
    if (shown.length > 0) return shown
    const userId = knowledge.callers.get(token).userId
    if (userId === undefined) return []
    const deletion = knowledge.users.deletionOf(userId)
    if (deletion && deletion.endedAt < observed.startedAt)
      return found(
        '§2.deleted-token',
        `Received: ${observed.exchange.response.status} for the token of ${userId}, deleted earlier (204)\nExpected: 401`,
      )
    const user = knowledge.users.sureSnapshot(userId, observed, [observed.startedAt])
    const sentence = typeof user?.status === 'string' ? REFUSED[user.status] : undefined
    if (!sentence) return []
    return found(
      sentence,
      `Received: ${observed.exchange.response.status} for the token of ${userId}, a ${String(user?.status)} user\nExpected: 401`,
    )
  },
})

/**
 * The answer itself shows the caller INVITED or SUSPENDED (their /me, or themselves by id or in a list):
 * they were so when their token was read. INVITED surely: nothing makes a user INVITED again (§4).
 * SUSPENDED unless a write through the proxy came while the request was on its way.
 */
function judgeTheCallerShown(observed: ObservedExchange, knowledge: Knowledge): RuleFinding[] {
  const operation = operationOf(observed)
  if (operation === undefined || !READS.includes(operation)) return []
  const users = usersInAnswer(observed)
  const token = tokenOf(observed) as string
  const callerId = operation === 'getCurrentUser' ? users[0]?.id : knowledge.callers.get(token).userId
  const caller: SeenUser | undefined = users.find((user) => user.id === callerId)
  const sentence = typeof caller?.status === 'string' ? REFUSED[caller.status] : undefined
  if (!caller || !sentence) return []
  const { startedAt, endedAt } = observed
  if (caller.status === 'SUSPENDED' && knowledge.users.writes.changedBetween(caller.id, startedAt, endedAt)) return []
  const why =
    caller.status === 'INVITED'
      ? 'nothing makes a user INVITED again (docs/contract.md §4), so they were INVITED when the token was read'
      : 'no write through the proxy came while the request was on its way'
  return found(
    sentence,
    `Received: ${observed.exchange.response.status} for the token of ${caller.id}, whom this very answer shows ${caller.status}: ${why}\nExpected: 401`,
  )
}
