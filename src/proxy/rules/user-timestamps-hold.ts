import { sortableInstant } from '../list-order.js'
import { usersInAnswer } from '../users-in-answer.js'
import { defineRule, found } from './define-rule.js'

export const userTimestampsHold = defineRule({
  name: 'user-timestamps-hold',
  rule: "A user's createdAt never changes, and updatedAt is never earlier than it (docs/contract.md §1)",
  observe(observed, knowledge) {
    for (const user of usersInAnswer(observed)) {
      const [created, updated] = [sortableInstant(user.createdAt), sortableInstant(user.updatedAt)]
      if (created !== undefined && updated !== undefined && updated < created)
        return found(
          '§1.updated-at',
          `Received: ${user.id} updated at ${String(user.updatedAt)}, created at ${String(user.createdAt)}\nExpected: updatedAt never earlier than createdAt`,
        )
      // createdAt never changes, whoever wrote in between: any earlier answer is a witness.
      const first = knowledge.users.firstCreatedAt(user.id)
      if (first && created !== undefined && sortableInstant(first.user.createdAt) !== created)
        return found(
          '§1.created-at',
          `Received: ${user.id} created at ${String(user.createdAt)}\nExpected: ${String(first.user.createdAt)}, as an earlier answer showed it (createdAt never changes)`,
        )
    }
    return []
  },
})
