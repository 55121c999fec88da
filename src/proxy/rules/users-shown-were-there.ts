import { usersInAnswer } from '../users-in-answer.js'
import { defineRule, found } from './define-rule.js'

export const usersShownWereThere = defineRule({
  name: 'users-shown-were-there',
  rule: "A user of the caller's organization is found by id, whatever their status: a user shown before and after a 404 for their id existed when it came (docs/contract.md §3, §4)",
  observe(observed, knowledge) {
    for (const user of usersInAnswer(observed)) {
      const claim = knowledge.claims.notFound.get(user.id)
      if (!claim || claim.endedAt >= observed.startedAt || user.organizationId !== claim.organizationId) continue
      const read = claim.request.startsWith('GET ')
      return found(
        read ? '§4.get.any-status' : '§3.order',
        `Received: ${claim.request} answered 404 earlier, and ${user.id} (${String(user.status)}) of the caller's organization ${claim.organizationId} in this answer; an answer before that 404 showed them too\nExpected: ${read ? '200' : "the operation's own answer (step 6 of §3's order passes)"} for it: a user shown before and after it existed when it came (a deleted user never comes back, §4)`,
      )
    }
    return []
  },
})
