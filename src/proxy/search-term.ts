import { holdsTerm } from '../contract/rules/api-user.js'

/** What a user must show for a search to be judged: a name and an email. */
export interface Searchable {
  name: string
  email: string
}

/**
 * How a search term matches a user, docs/contract.md §4 (name or email holds it, both sides lower-cased),
 * read both ways a backend may lower-case: the whole text at once (ECMAScript's toLowerCase), or each
 * character alone, as the contract names no Unicode mapping (a final sigma, a dotted capital I). `yes`
 * and `no` when both agree; `either` when they do not, which no rule holds a backend to.
 *
 * @example
 * matchTerm({ name: 'Ada Lovelace', email: 'ada@acme.test' }, 'LOVE') // 'yes'
 */
export function matchTerm(user: Searchable, term: string): 'yes' | 'no' | 'either' {
  const whole = holdsTerm(user, term)
  const lower = (text: string): string => [...text].map((character) => character.toLowerCase()).join('')
  const needle = lower(term)
  const alone = lower(user.name).includes(needle) || lower(user.email).includes(needle)
  return whole === alone ? (whole ? 'yes' : 'no') : 'either'
}
