import { operationOf, statusOf } from '../observed-exchange.js'
import { readPatchBody } from '../patch-body.js'
import { defineRule, found } from './define-rule.js'

export const conflictsAreForInvitedUsers = defineRule({
  name: 'conflicts-are-for-invited-users',
  rule: 'The state rule (409) is about the status of an INVITED user alone: a PATCH without status, or of a user who is no longer INVITED, is never a 409 (docs/contract.md §4)',
  observe(observed, knowledge) {
    const { userId } = observed
    if (operationOf(observed) !== 'updateUser' || statusOf(observed) !== 409 || observed.refusal) return []
    const patch = readPatchBody(observed)
    if (!patch || userId === undefined) return []
    if (!('status' in patch))
      return found(
        '§4.patch.409',
        `Received: 409 for PATCH ${observed.path} ${observed.exchange.request.body ?? ''}, which sets no status\nExpected: the state rule freezes an INVITED user's status alone: their name and role can be set`,
      )
    // Nothing makes a user INVITED again: shown ACTIVE or SUSPENDED once, they are not INVITED now, whoever wrote since.
    const shown = knowledge.users.latest(userId)
    const status = shown && shown.endedAt < observed.startedAt ? shown.user.status : undefined
    if (status !== 'ACTIVE' && status !== 'SUSPENDED') return []
    return found(
      '§4.patch.active-suspended',
      `Received: 409 for PATCH ${observed.path} ${observed.exchange.request.body ?? ''}\nExpected: an earlier answer showed ${userId} ${status}, and nothing makes a user INVITED again: ACTIVE and SUSPENDED turn into each other freely`,
    )
  },
})
