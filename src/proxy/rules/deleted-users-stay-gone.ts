import { succeeded } from '../observed-exchange.js'
import { usersInAnswer } from '../users-in-answer.js'
import { defineRule, found } from './define-rule.js'

export const deletedUsersStayGone = defineRule({
  name: 'deleted-users-stay-gone',
  rule: 'Once a DELETE answered 204, the user is in no answer again: GET, PATCH and DELETE of the id are 404, the list leaves it out (docs/contract.md §4)',
  observe(observed, knowledge) {
    if (!succeeded(observed)) return []
    // Only requests sent after the deletion had its answer: one in flight beside it may precede it.
    const deletedBefore = (id: string): boolean => {
      const deletion = knowledge.users.deletionOf(id)
      return deletion !== undefined && deletion.endedAt < observed.startedAt
    }
    const { userId } = observed
    if (userId !== undefined && deletedBefore(userId))
      return found(
        '§4.delete.after',
        `Received: ${observed.exchange.response.status} for ${observed.exchange.request.method} of ${userId}, deleted earlier (204)\nExpected: 404`,
      )
    const ghost = usersInAnswer(observed).find((user) => deletedBefore(user.id))
    if (!ghost) return []
    return found(
      '§4.delete.after',
      `Received: ${ghost.id} in the answer, deleted earlier (204)\nExpected: a deleted user in no answer`,
    )
  },
})
