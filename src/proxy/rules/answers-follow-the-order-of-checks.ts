import type { SentenceId } from '../../contract/rules/contract-sentences.js'
import { operationOf, statusOf, type ObservedExchange } from '../observed-exchange.js'
import { defineRule, found } from './define-rule.js'

/**
 * Answers a backend may give at any step: a rate limit or an outage may come before anything else
 * (docs/contract.md, "Where the contract leaves room": 429 and 503 are documented everywhere), and a
 * 500 is no-internal-errors' finding already.
 */
const ANY_STEP = [429, 500, 503]

/** §3's pairs of adjacent steps, by the earlier one: the sentence a skip to the next step breaks. */
const NEXT_STEP: Record<number, SentenceId> = {
  1: '§3.order.401-before-route',
  2: '§3.order.route-before-413',
  3: '§3.order.413-before-415',
  4: '§3.order.415-before-400',
  5: '§3.order.400-before-404',
}

export const answersFollowTheOrderOfChecks = defineRule({
  name: 'answers-follow-the-order-of-checks',
  rule: "A request that breaks a rule gets the answer of the first check it fails, in §3's order (docs/contract.md §2, §3, §4)",
  observe(observed) {
    const status = statusOf(observed)
    const { refusal } = observed
    if (!refusal) return judgeValidRequest(observed)
    // 401 at every step: the token may have been refused besides (§3, step 1).
    if (status === refusal.status || status === 401 || ANY_STEP.includes(status)) return []
    const later = stepOf(status, observed)
    const sentences: SentenceId[] = [refusal.sentence]
    if (later !== undefined && later > refusal.step)
      sentences.push(later === refusal.step + 1 ? (NEXT_STEP[refusal.step] as SentenceId) : '§3.order')
    return found(
      sentences,
      `Received: ${status}\nExpected: ${refusal.status}, for ${refusal.why} (step ${refusal.step} of docs/contract.md §3's order)`,
    )
  },
})

/** A request fine by itself still never gets a 404 where there is no user to look up. */
function judgeValidRequest(observed: ObservedExchange): ReturnType<typeof found> {
  if (statusOf(observed) !== 404) return []
  const operation = operationOf(observed)
  if (operation === 'getCurrentUser')
    return found(
      '§4.me.fixed',
      'Received: 404 for GET /api/users/me\nExpected: the caller (me is never looked up as an id)',
    )
  if (operation === 'listUsers') {
    const pastTheEnd = Number(observed.query.get('page') ?? '1') > 1
    return found(
      pastTheEnd ? '§4.list.past-the-end' : '§4.list.exists',
      `Received: 404 for a valid list request\nExpected: 200${pastTheEnd ? ', with data [] past the last page' : ''}`,
    )
  }
  return []
}

/** The step of §3's order a status answers; 404 is routing's on a path the document lacks, else the user's. */
function stepOf(status: number, observed: ObservedExchange): number | undefined {
  if (status === 404) return observed.exchange.operation ? 6 : 2
  return { 401: 1, 405: 2, 413: 3, 415: 4, 400: 5, 403: 7, 409: 8 }[status]
}
