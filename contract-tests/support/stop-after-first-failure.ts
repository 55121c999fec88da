import { beforeEach } from 'vitest'
import { NOT_RUN_REASON } from '../../src/contract/run/skip-reasons.js'
import { firstFailure } from './first-failure.js'

/**
 * `verify --bail`'s setup file (src/contract/run/run-suite.ts): once a check failed, every later check is
 * skipped as not run. vitest's own bail would stop the run before the remaining files are even
 * collected, and the totals would leave their checks out; this way every check is counted.
 */
beforeEach((context) => {
  if (firstFailure.seen) context.skip(NOT_RUN_REASON)
  context.onTestFailed(() => {
    firstFailure.seen = true
  })
})
