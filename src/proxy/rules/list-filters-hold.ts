import { holdsTerm } from '../../contract/rules/api-user.js'
import { operationOf, statusOf } from '../observed-exchange.js'
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
    const stray = items.find((item) => isReadable(item) && !holdsTerm(item, term) && !holdsTermCharByChar(item, term))
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

/**
 * The same rule with each character lower-cased alone: the contract names no Unicode mapping, and
 * backends lower-case a final sigma or a dotted capital I otherwise; a user either reading keeps is
 * never reported.
 */
function holdsTermCharByChar(user: { name: string; email: string }, term: string): boolean {
  const lower = (text: string): string => [...text].map((character) => character.toLowerCase()).join('')
  const needle = lower(term)
  return lower(user.name).includes(needle) || lower(user.email).includes(needle)
}
