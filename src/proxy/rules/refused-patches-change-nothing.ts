import { usersInAnswer } from '../users-in-answer.js'
import { defineRule, found } from './define-rule.js'

/** What a PATCH could have changed. */
const FIELDS = ['name', 'role', 'status', 'updatedAt'] as const

export const refusedPatchesChangeNothing = defineRule({
  name: 'refused-patches-change-nothing',
  rule: 'A PATCH answered 400 or 409 changed nothing, its valid fields included (docs/contract.md §4, §5)',
  observe(observed, knowledge) {
    for (const user of usersInAnswer(observed)) {
      const refused = knowledge.refusedPatchOf(user.id)
      if (!refused || refused.endedAt >= observed.startedAt) continue
      // Sure only while no other write through the proxy came after the refused PATCH.
      if (knowledge.users.writes.changedBetween(user.id, refused.startedAt, observed.endedAt, [refused.startedAt]))
        continue
      const moved = FIELDS.find((field) => field in user && user[field] !== refused.before[field])
      if (!moved) continue
      return found(
        refused.status === 400 ? '§5.400-changes-nothing' : '§4.patch.409-changes-nothing',
        `Received: ${user.id} with ${moved} ${JSON.stringify(user[moved])} after a PATCH answered ${refused.status}\nExpected: ${JSON.stringify(refused.before[moved])}, as before it (no write through the proxy came since)`,
      )
    }
    return []
  },
})
