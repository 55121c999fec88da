import type { SentenceId } from '../../contract/rules/contract-sentences.js'
import type { Knowledge } from '../knowledge.js'
import type { ObservedExchange } from '../observed-exchange.js'

/** What a rule found wrong with one answer: the sentences it breaks and a "Received / Expected" message. */
export interface RuleFinding {
  sentences: readonly SentenceId[]
  message: string
}

/**
 * A rule of docs/contract.md that a passive observer can judge: a pure function of one exchange and what
 * the proxy learned before it (the Knowledge, read only), that says nothing unless it is sure. It never
 * sends a request of its own.
 */
export interface ProxyRule {
  name: string
  rule: string
  observe(observed: ObservedExchange, knowledge: Knowledge): RuleFinding[]
}

export function defineRule(rule: ProxyRule): ProxyRule {
  return rule
}

/** One finding, as rules return them. */
export function found(sentences: SentenceId | readonly SentenceId[], message: string): RuleFinding[] {
  return [{ sentences: typeof sentences === 'string' ? [sentences] : sentences, message }]
}
