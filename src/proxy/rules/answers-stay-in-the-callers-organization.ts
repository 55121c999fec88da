import { operationOf, tokenOf } from '../observed-exchange.js'
import { usersInAnswer } from '../users-in-answer.js'
import { defineRule, found } from './define-rule.js'

export const answersStayInTheCallersOrganization = defineRule({
  name: 'answers-stay-in-the-callers-organization',
  rule: "Every user an answer shows is of the caller's organization: existence never leaks across organizations (docs/contract.md §3, §4)",
  observe(observed, knowledge) {
    const users = usersInAnswer(observed).filter((user) => typeof user.organizationId === 'string')
    if (users.length === 0) return []
    const isList = operationOf(observed) === 'listUsers'
    const sentence = isList ? '§4.list.own-organization' : '§3.other-organization'
    const token = tokenOf(observed)
    const caller = token === undefined ? {} : knowledge.callers.get(token)
    // The caller's own /me, or a list that held one organization alone, says which is theirs.
    const own = caller.organizationId
    if (own !== undefined) {
      const stranger = users.find((user) => user.organizationId !== own)
      if (!stranger) return []
      const learned = caller.organizationFrom === 'me' ? 'their GET /api/users/me' : 'a list they read earlier'
      return found(
        sentence,
        `Received: user ${stranger.id} of the organization ${stranger.organizationId}\nExpected: users of the caller's organization ${own} only (known from ${learned})`,
      )
    }
    // Nothing known of the caller yet: a list that mixes organizations is wrong whoever asked.
    const organizations = [...new Set(users.map((user) => user.organizationId))]
    if (!isList || organizations.length < 2) return []
    return found(
      sentence,
      `Received: one list with users of ${organizations.length} organizations (${organizations.join(', ')})\nExpected: users of the caller's organization only`,
    )
  },
})
