import type { SentenceId } from '../../contract/rules/contract-sentences.js'
import { requestHeaderOf } from '../../contract/client/exchange.js'
import { FRESH_MS } from '../fresh-answers.js'
import { statusOf, tokenOf } from '../observed-exchange.js'
import { ANY_USER } from '../user-book.js'
import { defineRule, found } from './define-rule.js'

export const acceptedTokensStayAccepted = defineRule({
  name: 'accepted-tokens-stay-accepted',
  rule: 'The scheme matches case-insensitively and spaces and tabs around the token are ignored: a token just accepted, written another way, is accepted again (docs/contract.md §2)',
  observe(observed, knowledge) {
    const token = tokenOf(observed)
    if (statusOf(observed) !== 401 || token === undefined) return []
    const header = requestHeaderOf(observed.exchange.request, 'authorization') ?? ''
    // The header written the plain way: a 401 for it may be an expiry, which the contract does not cover.
    const scheme = /^[ \t]*(\S+)/.exec(header)?.[1] ?? ''
    const sentences: SentenceId[] = []
    if (scheme !== 'Bearer') sentences.push('§2.scheme-case')
    if (header !== `${scheme} ${token}`) sentences.push('§2.token-white-space')
    const accepted = knowledge.callers.lastAcceptedBefore(token, observed.startedAt)
    if (sentences.length === 0 || !accepted) return []
    const ago = Math.round(knowledge.now() - accepted.seenAt)
    // A write that may have suspended or deleted the token's user: theirs, when the proxy knows who it is.
    const whose = knowledge.callers.get(token).userId ?? ANY_USER
    if (ago > FRESH_MS || knowledge.users.writes.changedBetween(whose, accepted.endedAt, observed.endedAt)) return []
    return found(
      sentences,
      `Received: 401 for Authorization: ${JSON.stringify(header.replace(token, '***'))}\nExpected: the answer the same token got ${ago} ms before, with no write through the proxy since: the scheme matches case-insensitively, and spaces and tabs around the token are ignored`,
    )
  },
})
