import type { SentenceId } from '../../contract/rules/contract-sentences.js'
import { succeeded, tokenOf } from '../observed-exchange.js'
import { defineRule, found } from './define-rule.js'

/** The statuses whose users' tokens are refused (docs/contract.md §2). */
const REFUSED: Record<string, SentenceId> = { SUSPENDED: '§2.suspended-token', INVITED: '§2.invited-token' }

export const refusedTokensGet401 = defineRule({
  name: 'refused-tokens-get-401',
  rule: 'The token of a deleted, SUSPENDED or INVITED user gets 401, never an answer (docs/contract.md §2)',
  observe(observed, knowledge) {
    const token = tokenOf(observed)
    if (!succeeded(observed) || token === undefined) return []
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
