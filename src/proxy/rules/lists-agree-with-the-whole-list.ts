import type { SentenceId } from '../../contract/rules/contract-sentences.js'
import { FRESH_MS } from '../fresh-answers.js'
import type { Knowledge } from '../knowledge.js'
import { readListAnswer, type ListAnswer } from '../list-answer.js'
import { compareListOrder, sortableInstant } from '../list-order.js'
import { tokenOf, type ObservedExchange } from '../observed-exchange.js'
import { matchTerm } from '../search-term.js'
import { ANY_USER } from '../user-book.js'
import type { SeenUser } from '../users-in-answer.js'
import type { WholeList } from '../whole-list-book.js'
import { defineRule, found, type RuleFinding } from './define-rule.js'

export const listsAgreeWithTheWholeList = defineRule({
  name: 'lists-agree-with-the-whole-list',
  rule: "Once the proxy saw an organization's whole list, a page read just after it, with no write through the proxy in between, holds exactly the users the filter keeps, on the page the order gives them (docs/contract.md §4)",
  observe(observed, knowledge) {
    const answer = readListAnswer(observed)
    const whole = answer && wholeListBefore(observed, answer, knowledge)
    if (!answer || !whole) return []
    const filter = readFilter(observed.query)
    const kept = keep(whole.users, filter)
    if (!kept) return []
    const sentences: SentenceId[] = filter.sentences.length > 0 ? filter.sentences : ['§4.list.answer']
    const ago = Math.round(knowledge.now() - whole.seenAt)
    const writes = whole.followed === 1 ? 'the write' : `the ${whole.followed} writes`
    const since =
      whole.followed === 0
        ? 'with no write through the proxy since'
        : `with ${writes} through the proxy since followed by what their answers say they did, and no other`
    const seen = `the organization's whole list, read ${ago} ms before by ${whole.readers.join(' and ')} (${whole.users.length} users), ${since}`
    const expected = kept.slice((answer.page - 1) * answer.limit, answer.page * answer.limit)
    const onThePage = judgePage(answer, expected, whole, filter, seen, sentences)
    if (onThePage.length > 0 || answer.total === kept.length) return onThePage
    return found(
      [...new Set<SentenceId>([...sentences, '§4.list.answer'])],
      `Received: total ${answer.total}${filter.described}\nExpected: ${kept.length}, the users of ${seen} that ${filter.described ? 'pass the filter' : 'it holds'} (one of the two answers is wrong)`,
    )
  },
})

interface Filter {
  role?: string
  search?: string
  sentences: SentenceId[]
  /** ` for role=…&search=…`, or '' for none. */
  described: string
}

function readFilter(query: URLSearchParams): Filter {
  const role = query.get('role') ?? undefined
  // §4: the empty term means no filter; any other, white space included, is a term.
  const search = query.get('search') || undefined
  const sentences: SentenceId[] = []
  if (role !== undefined) sentences.push('§4.list.role')
  if (search !== undefined) sentences.push('§4.list.search')
  const parts = [
    ...(role === undefined ? [] : [`role=${role}`]),
    ...(search === undefined ? [] : [`search=${JSON.stringify(search)}`]),
  ]
  return {
    ...(role === undefined ? {} : { role }),
    ...(search === undefined ? {} : { search }),
    sentences,
    described: parts.length === 0 ? '' : ` for ${parts.join(' and ')}`,
  }
}

/**
 * The organization's whole list the page is held to: read before it, fresh, and with no write through
 * the proxy from its first page to this answer's end.
 */
function wholeListBefore(observed: ObservedExchange, answer: ListAnswer, knowledge: Knowledge): WholeList | undefined {
  const token = tokenOf(observed)
  const own = token === undefined ? undefined : knowledge.callers.get(token).organizationId
  const organizations = new Set(answer.items.map((item) => item.organizationId))
  const [theirs] = organizations
  const organizationId = own ?? (organizations.size === 1 && typeof theirs === 'string' ? theirs : undefined)
  const whole = organizationId === undefined ? undefined : knowledge.wholeLists.whole(organizationId)
  if (!whole || whole.endedAt >= observed.startedAt || knowledge.now() - whole.seenAt > FRESH_MS) return undefined
  if (knowledge.users.writes.changedBetween(ANY_USER, whole.startedAt, observed.endedAt)) return undefined
  return whole
}

/**
 * The users the filter keeps, in the contract's order; undefined when the proxy cannot tell (a user
 * whose name or email it did not see, a term that the two readings of lower case split, a createdAt it
 * cannot read).
 */
function keep(users: readonly SeenUser[], filter: Filter): SeenUser[] | undefined {
  const kept: SeenUser[] = []
  for (const user of users) {
    if (filter.role !== undefined && user.role !== filter.role) continue
    if (filter.search !== undefined) {
      if (typeof user.name !== 'string' || typeof user.email !== 'string') return undefined
      const match = matchTerm({ name: user.name, email: user.email }, filter.search)
      if (match === 'either') return undefined
      if (match === 'no') continue
    }
    kept.push(user)
  }
  if (kept.some((user) => sortableInstant(user.createdAt) === undefined)) return undefined
  return kept.sort((a, b) => compareListOrder(a, b) as number)
}

function judgePage(
  answer: ListAnswer,
  expected: SeenUser[],
  whole: WholeList,
  filter: Filter,
  seen: string,
  sentences: SentenceId[],
): RuleFinding[] {
  const received = new Set(answer.items.map((item) => item.id))
  const missing = expected.find((user) => !received.has(user.id))
  if (missing) {
    // Unfiltered, a user of another status left out breaks "every status".
    const status = missing.status === 'ACTIVE' || filter.sentences.length > 0 ? [] : ['§4.list.every-status' as const]
    return found(
      [...status, ...sentences],
      `Received: page ${answer.page} by ${answer.limit}${filter.described} without ${describe(missing)}\nExpected: that user on it (${expected.length} on this page), as ${seen} gives (one of the two answers is wrong)`,
    )
  }
  const wanted = new Set(expected.map((user) => user.id))
  const extra = answer.items.find((item) => !wanted.has(item.id))
  if (!extra) return []
  const known = whole.users.find((user) => user.id === extra.id)
  const status = extra.status === 'ACTIVE' || filter.sentences.length > 0 ? [] : ['§4.list.every-status' as const]
  return found(
    [...status, ...sentences],
    `Received: ${describe(extra)} on page ${answer.page} by ${answer.limit}${filter.described}\nExpected: ${known ? 'not on this page' : 'only users it held'}, as ${seen} gives (one of the two answers is wrong)`,
  )
}

function describe(user: SeenUser): string {
  const what = [user.name, user.email, user.role, user.status].filter((part) => typeof part === 'string')
  return `${user.id} (${what.join(', ')})`
}
