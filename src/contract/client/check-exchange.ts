import type { SentenceId } from '../rules/contract-sentences.js'
import type { Finding } from './contract-violation.js'
import type { Exchange } from './exchange.js'
import { ResponseSchemas, type SuiteLayer } from './response-schemas.js'
import { findUnusableAnswer } from './unusable-answer.js'

/** What a response-level check sees besides the exchange. */
export interface CheckContext {
  schemas: ResponseSchemas
  layer: SuiteLayer
}

/** A rule every response must keep (src/contract/checks/): a message when broken, else nothing. */
export interface ResponseCheck {
  name: string
  rule: string
  layer: 'core' | 'profile'
  /**
   * The sentences of docs/contract.md it holds every answer to, which the proxy's findings name; none
   * for the checks of the document itself (a documented status, media type or schema).
   */
  covers: readonly SentenceId[]
  verify(exchange: Exchange, context: CheckContext): string | undefined
}

/** The findings of the response checks on one exchange; [] when it keeps them all. */
export type ExchangeChecker = (exchange: Exchange) => Finding[]

/**
 * Runs the response checks of a layer on exchanges, however they were had: verify's client on what it
 * sent and got (contract-client.ts), the proxy on what it forwarded (src/proxy/judge-exchange.ts), so
 * that both hold an answer to the same rules in the same words. A redirect, an HTML page or an answer
 * past the limits is the one finding (unusable-answer.ts): every check would only see a symptom of it.
 * One checker compiles each response schema once, when first needed.
 *
 * @example
 * const checkExchange = createExchangeChecker(RESPONSE_CHECKS, 'core')
 * checkExchange(exchange) // [{ check: 'status-is-documented', rule: '…', message: 'Received: 201 …' }]
 */
export function createExchangeChecker(checks: readonly ResponseCheck[], layer: SuiteLayer = 'all'): ExchangeChecker {
  const context: CheckContext = { schemas: new ResponseSchemas(layer), layer }
  const chosen = checks.filter((check) => layer === 'all' || check.layer === 'core')
  return (exchange) => {
    const unusable = findUnusableAnswer(exchange)
    if (unusable) return [unusable]
    return chosen.flatMap((check) => {
      const message = check.verify(exchange, context)
      return message === undefined ? [] : [{ check: check.name, rule: check.rule, message }]
    })
  }
}
