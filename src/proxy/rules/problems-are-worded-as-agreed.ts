import { reasonPhrasesOf } from '../../http/reason-phrases.js'
import { operationOf, statusOf, type ObservedExchange } from '../observed-exchange.js'
import { readPatchBody } from '../patch-body.js'
import { defineRule, found, type RuleFinding } from './define-rule.js'

/** The document's maxItems of `errors`. */
const LISTED = 100

/** The keys a PATCH body may have (docs/contract.md §4): every other one is an issue of its own. */
const KNOWN_KEYS = ['name', 'role', 'status']

export const problemsAreWordedAsAgreed = defineRule({
  name: 'problems-are-worded-as-agreed',
  rule: 'A problem of type about:blank has the reason phrase of its status as title; a 400 that lists 100 issues of more says how many there were (docs/contract.md §5)',
  observe(observed) {
    const status = statusOf(observed)
    if (status < 400) return []
    const problem = observed.exchange.response.body as { type?: unknown; title?: unknown } | undefined
    const phrases = reasonPhrasesOf(status)
    if (problem?.type === 'about:blank' && phrases.length > 0 && !phrases.includes(problem.title as string))
      return found(
        '§5.problem.fields',
        `Received: type "about:blank" with title ${JSON.stringify(problem.title)}\nExpected: ${phrases.map((phrase) => JSON.stringify(phrase)).join(' or ')}, the reason phrase of ${status} (RFC 9457 §4.2.1), or a problem type of the backend's own`,
      )
    return judgeTheCount(observed)
  },
})

/**
 * A PATCH body with more unknown keys than 100 has more issues than the list holds: detail must count
 * them all or those left out (how issues are counted is the backend's choice, so the count is at least
 * the number of unknown keys), as verify's check of the same rule reads it.
 */
function judgeTheCount(observed: ObservedExchange): RuleFinding[] {
  const body = observed.exchange.response.body as { errors?: unknown; detail?: unknown } | undefined
  if (statusOf(observed) !== 400 || operationOf(observed) !== 'updateUser' || !Array.isArray(body?.errors)) return []
  const listed = body.errors.length
  const unknown = Object.keys(readPatchBody(observed) ?? {}).filter((key) => !KNOWN_KEYS.includes(key)).length
  if (listed < LISTED || unknown <= LISTED) return []
  const { detail } = body
  const counts = (typeof detail === 'string' ? (detail.match(/\d[\d,]*/g) ?? []) : []).map((digits) =>
    Number(digits.replaceAll(',', '')),
  )
  if (counts.some((count) => count >= unknown || count + listed >= unknown)) return []
  return found(
    '§5.errors.at-most-100',
    `Received: ${listed} issues listed, detail ${JSON.stringify(detail)}, for a body of ${unknown} unknown keys\nExpected: a detail that counts every issue (${unknown} at least) or those left out`,
  )
}
