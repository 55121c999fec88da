import type { Exchange } from '../../src/contract/client/exchange.js'
import { expectRule, expectStatus } from './suite.js'

/**
 * A 401 with the RFC 6750 challenge (CONTRACT §2, core): `WWW-Authenticate: Bearer`, carrying
 * `error="invalid_token"` exactly when a non-empty Bearer token was sent and refused.
 */
export function expectUnauthenticated(exchange: Exchange, tokenWasSent: boolean, rule: string): void {
  expectStatus(exchange, 401, rule)
  const challenge = exchange.response.headers['www-authenticate']
  expectRule(
    exchange,
    challenge !== undefined && /^Bearer( |$)/i.test(challenge),
    'A 401 carries WWW-Authenticate: Bearer (docs/contract.md §2)',
    `Received: WWW-Authenticate ${JSON.stringify(challenge)}`,
  )
  const saysInvalid = /error\s*=\s*"?invalid_token"?/.test(challenge ?? '')
  expectRule(
    exchange,
    saysInvalid === tokenWasSent,
    'WWW-Authenticate carries error="invalid_token" exactly when a non-empty Bearer token was refused (docs/contract.md §2)',
    `Received: WWW-Authenticate ${JSON.stringify(challenge)}\nExpected: ${tokenWasSent ? 'with' : 'without'} error="invalid_token"`,
  )
}
