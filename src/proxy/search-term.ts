import { holdsTerm } from '../contract/rules/api-user.js'

/** What a user must show for a search to be judged: a name and an email. */
export interface Searchable {
  name: string
  email: string
}

/**
 * How a search term matches a user, docs/contract.md §4 (name or email holds it, both sides lower-cased),
 * read both ways a backend may lower-case: Unicode's full mapping of the whole text (ECMAScript's toLowerCase:
 * a final sigma, İ → i̇) or its simple mapping, each character alone (Go's, some databases'): docs/contract.md §4
 * leaves the mapping open (§4.list.search.mapping). `yes`
 * and `no` when both agree; `either` when they do not, which no rule holds a backend to.
 *
 * @example
 * matchTerm({ name: 'Ada Lovelace', email: 'ada@acme.test' }, 'LOVE') // 'yes'
 */
export function matchTerm(user: Searchable, term: string): 'yes' | 'no' | 'either' {
  const whole = holdsTerm(user, term)
  // Unicode's simple mapping, one code point for one: where the full one gives more (İ → i̇, the only
  // unconditional case), its first code point is the simple one (İ → i).
  const lower = (text: string): string =>
    [...text].map((character) => String.fromCodePoint(character.toLowerCase().codePointAt(0)!)).join('')
  const needle = lower(term)
  const alone = lower(user.name).includes(needle) || lower(user.email).includes(needle)
  return whole === alone ? (whole ? 'yes' : 'no') : 'either'
}
