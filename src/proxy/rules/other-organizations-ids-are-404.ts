import { statusOf, succeeded, tokenOf } from '../observed-exchange.js'
import { usersInAnswer } from '../users-in-answer.js'
import { defineRule, found } from './define-rule.js'

export const otherOrganizationsIdsAre404 = defineRule({
  name: 'other-organizations-ids-are-404',
  rule: 'An id of another organization is a 404 for every caller, never a 403 or a success (docs/contract.md §3)',
  observe(observed, knowledge) {
    const { userId, refusal } = observed
    const token = tokenOf(observed)
    // A request refused by itself is the order of checks' to judge; one without a known caller, nobody's.
    if (userId === undefined || refusal || token === undefined) return []
    const own = knowledge.callers.get(token).organizationId
    const theirs = knowledge.users.organizationOf(userId)
    if (own === undefined || theirs === undefined || own === theirs) return []
    const status = statusOf(observed)
    // A success that shows the user is answers-stay-in-the-callers-organization's finding.
    if (succeeded(observed) && usersInAnswer(observed).length > 0) return []
    if (status !== 403 && status !== 409 && !succeeded(observed)) return []
    return found(
      '§3.other-organization',
      `Received: ${status} for ${userId}, a user of the organization ${theirs}\nExpected: 404, as for an id that names nobody (the caller's organization is ${own})`,
    )
  },
})
