import type { MockOptions } from '../../../../src/server/start-mock.js'
import type { MockInternals } from '../break-helpers.js'

/**
 * A deliberately broken implementation of the users API: the mock with one rule broken. The contract
 * suite must fail on it, and on the right check: `caughtBy` matches the failed checks' names and messages.
 */
export interface Mutant {
  name: string
  /** The rule of CONTRACT.md it breaks. */
  breaks: string
  caughtBy: RegExp
  apply(internals: MockInternals): void
  /** Options the broken mock starts with (a webhook delivery that never retries). */
  mockOptions?: Partial<MockOptions>
}
