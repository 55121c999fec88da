import { compareInstants } from '../list-order.js'
import { dataOf, operationOf, succeeded } from '../observed-exchange.js'
import { readPatchBody } from '../patch-body.js'
import type { SeenUser } from '../users-in-answer.js'
import { defineRule, found } from './define-rule.js'

export const updatedAtMovesOnlyOnAChange = defineRule({
  name: 'updated-at-moves-only-on-a-change',
  rule: 'A PATCH that changes a field moves updatedAt forward; one that changes nothing keeps it (docs/contract.md §1, §4)',
  observe(observed, knowledge) {
    const { userId } = observed
    if (operationOf(observed) !== 'updateUser' || !succeeded(observed) || observed.refusal || userId === undefined)
      return []
    const after = dataOf(observed) as SeenUser | undefined
    const sent = readPatchBody(observed)
    // The user just before: only when no other write through the proxy may have come in between.
    const before = knowledge.users.sureSnapshot(userId, observed, [observed.startedAt])
    if (!after || !sent || !before) return []
    const moved = compareInstants(after.updatedAt, before.updatedAt)
    if (moved === undefined) return []
    const changed = Object.entries(sent).filter(([key, value]) => {
      const stored = before[key as keyof SeenUser]
      return key === 'name' && typeof value === 'string' ? value.trim() !== stored : value !== stored
    })
    if (changed.length > 0 && moved <= 0)
      return found(
        '§1.updated-at',
        `Received: updatedAt ${String(after.updatedAt)} after a PATCH that changed ${changed.map(([key]) => key).join(', ')} (it was ${String(before.updatedAt)})\nExpected: a later updatedAt`,
      )
    if (changed.length === 0 && moved !== 0)
      return found(
        '§4.patch.same-value',
        `Received: updatedAt ${String(after.updatedAt)} after a PATCH that set every field to the value it had (it was ${String(before.updatedAt)})\nExpected: updatedAt unchanged`,
      )
    return []
  },
})
