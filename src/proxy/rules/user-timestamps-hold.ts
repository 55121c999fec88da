import { compareInstants, sortableInstant } from '../list-order.js'
import { usersInAnswer } from '../users-in-answer.js'
import { defineRule, found } from './define-rule.js'

export const userTimestampsHold = defineRule({
  name: 'user-timestamps-hold',
  rule: "A user's createdAt never changes, and updatedAt is never earlier than it (docs/contract.md §1)",
  observe(observed, knowledge) {
    for (const user of usersInAnswer(observed)) {
      const order = compareInstants(user.updatedAt, user.createdAt)
      if (order !== undefined && order < 0)
        return found(
          '§1.updated-at',
          `Received: ${user.id} updated at ${String(user.updatedAt)}, created at ${String(user.createdAt)}\nExpected: updatedAt never earlier than createdAt`,
        )
      // createdAt never changes, whoever wrote in between: any earlier answer is a witness.
      const first = knowledge.users.firstCreatedAt(user.id)
      const changed =
        first !== undefined &&
        first.user.createdAt !== user.createdAt &&
        compareInstants(first.user.createdAt, user.createdAt) !== 0 &&
        sortableInstant(user.createdAt) !== undefined
      if (first && changed)
        return found(
          '§1.created-at',
          `Received: ${user.id} created at ${String(user.createdAt)}\nExpected: ${String(first.user.createdAt)}, as an earlier answer showed it (createdAt never changes)`,
        )
    }
    return []
  },
})
