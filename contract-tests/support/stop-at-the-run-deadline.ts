import { beforeEach, inject } from 'vitest'
import { RUN_TIMEOUT_REASON } from '../../src/contract/run/skip-reasons.js'
import { SUITE_SETTINGS } from '../../src/contract/run/suite-settings.js'

/**
 * `verify --run-timeout`'s setup file (src/contract/run/run-suite.ts): once the run's deadline has passed, no
 * further check starts; each is reported as not run, and the run fails. A check already running ends
 * within its own limit (each request within --request-timeout, each check within vitest's testTimeout).
 */
const deadline = inject(SUITE_SETTINGS)?.runDeadline ?? Number.POSITIVE_INFINITY

beforeEach((context) => {
  if (Date.now() > deadline) context.skip(RUN_TIMEOUT_REASON)
})
