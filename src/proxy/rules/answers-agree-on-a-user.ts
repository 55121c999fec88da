import type { SentenceId } from '../../contract/rules/contract-sentences.js'
import { FRESH_MS } from '../fresh-answers.js'
import { compareInstants } from '../list-order.js'
import { operationOf } from '../observed-exchange.js'
import { usersInAnswer, type SeenUser } from '../users-in-answer.js'
import { defineRule, found } from './define-rule.js'

/** What only a write changes (docs/contract.md §1, §4). */
const FIELDS = ['name', 'email', 'role', 'status'] as const
const TIMES = ['updatedAt'] as const

/** The sentence an answer that shows a user otherwise breaks, by operation. */
const SENTENCE: Record<string, SentenceId> = {
  getCurrentUser: '§4.me.answer',
  getUser: '§4.get.any-status',
  listUsers: '§4.list.answer',
}

export const answersAgreeOnAUser = defineRule({
  name: 'answers-agree-on-a-user',
  rule: 'Two answers a moment apart, with no write in between, show a user the same: /me, the user by id and the list (docs/contract.md §4)',
  observe(observed, knowledge) {
    const operation = operationOf(observed)
    const sentence = operation === undefined ? undefined : SENTENCE[operation]
    if (!sentence) return []
    for (const user of usersInAnswer(observed)) {
      const before = knowledge.users.sureSnapshot(user.id, observed)
      const seen = knowledge.users.latest(user.id)
      if (!before || !seen || knowledge.now() - seen.seenAt > FRESH_MS) continue
      // A PATCH refused since that answer: refused-patches-change-nothing names the cause of a change.
      if ((knowledge.refusedPatchOf(user.id)?.startedAt ?? 0) > seen.startedAt) continue
      const differs = differenceOf(user, before)
      if (!differs) continue
      const ago = Math.round(knowledge.now() - seen.seenAt)
      return found(
        sentence,
        `Received: ${user.id} with ${differs.field} ${JSON.stringify(differs.now)}\nExpected: ${JSON.stringify(differs.then)}, as an answer ${ago} ms before showed them, with no write through the proxy since (one of the two answers is wrong)`,
      )
    }
    return []
  },
})

/** The first field two answers show differently; instants compare as instants, whatever their precision. */
function differenceOf(now: SeenUser, then: SeenUser): { field: string; now: unknown; then: unknown } | undefined {
  for (const field of FIELDS) {
    if (field in now && field in then && now[field] !== then[field])
      return { field, now: now[field], then: then[field] }
  }
  for (const field of TIMES) {
    const order = compareInstants(now[field], then[field])
    if (order !== undefined && order !== 0) return { field, now: now[field], then: then[field] }
  }
  return undefined
}
