import type { SeenPage } from '../list-book.js'
import { listKey } from '../list-book.js'
import { compareListOrder } from '../list-order.js'
import { operationOf, statusOf, tokenOf } from '../observed-exchange.js'
import { ANY_USER } from '../user-book.js'
import { listItemsOf } from '../users-in-answer.js'
import { defineRule, found, type RuleFinding } from './define-rule.js'

export const listOrderHolds = defineRule({
  name: 'list-order-holds',
  rule: 'The list comes in createdAt order, ties by id, within each page and from one page to the next while nothing changes (docs/contract.md §4)',
  observe(observed, knowledge) {
    if (operationOf(observed) !== 'listUsers' || statusOf(observed) !== 200 || observed.refusal) return []
    const items = listItemsOf(observed) ?? []
    for (const [index, after] of items.entries()) {
      const before = items[index - 1]
      const order = before && compareListOrder(before, after)
      if (before && order !== undefined && order >= 0)
        return found(
          '§4.list.order',
          `Received: ${describe(before)} before ${describe(after)} on one page\nExpected: createdAt ascending, then id ascending`,
        )
    }
    const token = tokenOf(observed)
    const page = Number(observed.query.get('page') ?? '1')
    if (token === undefined || items.length === 0 || !Number.isSafeInteger(page)) return []
    const key = listKey(token, observed.query)
    const current: SeenPage = { page, items, startedAt: observed.startedAt, endedAt: observed.endedAt }
    for (const other of [knowledge.lists.page(key, page - 1), knowledge.lists.page(key, page + 1)]) {
      if (!other || other.items.length === 0) continue
      // A change between the two reads may move users across the edge of a page (§4: "as long as nothing changes").
      const from = Math.min(other.startedAt, current.startedAt)
      const to = Math.max(other.endedAt, current.endedAt)
      if (knowledge.users.writes.changedBetween(ANY_USER, from, to)) continue
      const [earlier, later] = other.page < page ? [other, current] : [current, other]
      const finding = judgePair(earlier, later)
      if (finding) return [finding]
    }
    return []
  },
})

/** Page n's last user comes before page n + 1's first, and no user is on both. */
function judgePair(earlier: SeenPage, later: SeenPage): RuleFinding | undefined {
  const last = earlier.items.at(-1)
  const first = later.items[0]
  if (!last || !first) return undefined
  const shared = later.items.find((item) => earlier.items.some((other) => other.id === item.id))
  if (shared)
    return {
      sentences: ['§4.list.order'],
      message: `Received: user ${shared.id} on page ${earlier.page} and on page ${later.page}\nExpected: pages that share no user while nothing changes`,
    }
  const order = compareListOrder(last, first)
  if (order === undefined || order < 0) return undefined
  return {
    sentences: ['§4.list.order'],
    message: `Received: page ${earlier.page} ends with ${describe(last)}, page ${later.page} starts with ${describe(first)}\nExpected: the order continues from one page to the next`,
  }
}

function describe(user: { id: string; createdAt?: unknown }): string {
  return `${user.id} (createdAt ${String(user.createdAt)})`
}
