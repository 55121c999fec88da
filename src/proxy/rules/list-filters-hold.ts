import { operationOf, statusOf } from '../observed-exchange.js'
import { matchTerm } from '../search-term.js'
import { listItemsOf, type SeenUser } from '../users-in-answer.js'
import { defineRule, found } from './define-rule.js'

export const listFiltersHold = defineRule({
  name: 'list-filters-hold',
  rule: 'role= keeps the users of that role, search= those whose name or email holds the term, ignoring case (docs/contract.md §4)',
  observe(observed) {
    if (operationOf(observed) !== 'listUsers' || statusOf(observed) !== 200 || observed.refusal) return []
    const items = listItemsOf(observed) ?? []
    const role = observed.query.get('role')
    const outsider =
      role === null ? undefined : items.find((item) => typeof item.role === 'string' && item.role !== role)
    if (outsider)
      return found(
        '§4.list.role',
        `Received: ${outsider.id}, a ${outsider.role}, in a list for role=${role}\nExpected: users whose role is ${role}`,
      )
    const term = observed.query.get('search')
    if (!term) return []
    // A user either reading of the contract keeps is never reported (search-term.ts).
    const stray = items.find((item) => isReadable(item) && matchTerm(item, term) === 'no')
    if (!stray) return []
    return found(
      '§4.list.search',
      `Received: ${stray.id} (${JSON.stringify(stray.name)}, ${JSON.stringify(stray.email)}) in a list for search=${JSON.stringify(term)}\nExpected: users whose name or email holds the term, ignoring case`,
    )
  },
})

function isReadable(user: SeenUser): user is SeenUser & { name: string; email: string } {
  return typeof user.name === 'string' && typeof user.email === 'string'
}
