import { requested } from '../list-answer.js'
import { dataOf, operationOf, statusOf } from '../observed-exchange.js'
import { defineRule, found } from './define-rule.js'

export const listPagesAddUp = defineRule({
  name: 'list-pages-add-up',
  rule: 'A page of the list says which page and limit it is, totalPages is ceil(total / limit), and it holds the users the arithmetic gives it (docs/contract.md §4)',
  observe(observed) {
    if (operationOf(observed) !== 'listUsers' || statusOf(observed) !== 200 || observed.refusal) return []
    const data = dataOf(observed)
    const meta = (observed.exchange.response.body as { meta?: unknown }).meta as Record<string, unknown> | undefined
    if (!Array.isArray(data) || typeof meta !== 'object' || meta === null) return []
    const { page, limit, total, totalPages } = meta
    // Counts of another shape are body-matches-schema's finding.
    if (![page, limit, total, totalPages].every((value) => Number.isSafeInteger(value) && (value as number) >= 0))
      return []
    const asked = { page: requested(observed, 'page'), limit: requested(observed, 'limit') }
    if (asked.page === undefined || asked.limit === undefined) return []
    const expectedPages = (total as number) === 0 ? 0 : Math.ceil((total as number) / asked.limit)
    const expectedSize = Math.max(0, Math.min(asked.limit, (total as number) - (asked.page - 1) * asked.limit))
    const wrong: string[] = []
    if (page !== asked.page) wrong.push(`meta.page ${String(page)} for page=${asked.page}`)
    if (limit !== asked.limit) wrong.push(`meta.limit ${String(limit)} for limit=${asked.limit}`)
    if (totalPages !== expectedPages)
      wrong.push(
        `totalPages ${String(totalPages)} for total ${String(total)}, where ceil(total / limit) is ${expectedPages}`,
      )
    if (data.length !== expectedSize)
      wrong.push(
        `${data.length} users on page ${asked.page} of a total of ${String(total)} by ${asked.limit}, where the arithmetic gives ${expectedSize}`,
      )
    if (wrong.length === 0) return []
    const pastTheEnd = asked.page > expectedPages && data.length > 0
    return found(
      pastTheEnd ? ['§4.list.answer', '§4.list.past-the-end'] : '§4.list.answer',
      `Received: ${wrong.join('; ')}\nExpected: total the number of all matching users, totalPages = ceil(total / limit) (0 when total is 0), and every page but the last full`,
    )
  },
})
