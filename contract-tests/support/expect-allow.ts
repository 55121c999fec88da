import type { Exchange } from '../../src/contract/client/exchange.js'
import { expectRule, expectStatus } from './suite.js'
import { METHODS_OF_EVERY_RESOURCE } from '../../src/http/methods.js'

/**
 * A 405 whose `Allow` lists the documented methods of the path (docs/contract.md §4), and no other but HEAD
 * or OPTIONS.
 */
export function expectMethodNotAllowed(exchange: Exchange, documented: string[], rule: string): void {
  expectStatus(exchange, 405, rule)
  const header = exchange.response.headers.allow
  const allow = (header ?? '')
    .split(',')
    .map((method) => method.trim().toUpperCase())
    .filter((method) => method !== '')
  const holds =
    documented.every((method) => allow.includes(method)) &&
    allow.every((method) => documented.includes(method) || METHODS_OF_EVERY_RESOURCE.includes(method))
  const message = `Received: Allow ${JSON.stringify(header)}\nExpected: ${documented.join(', ')}`
  expectRule(exchange, holds, 'A 405 carries Allow with the methods the path answers (docs/contract.md §4)', message)
}
