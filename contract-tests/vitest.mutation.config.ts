import { fileURLToPath } from 'node:url'
import { defineConfig, mergeConfig } from 'vitest/config'
import { SUITE_SETTINGS } from '../src/contract/run/suite-settings.js'
import { createInProcessTarget, IN_PROCESS_MOCK } from './mutation/in-process-target.js'
import { TESTS_BESIDE_THE_SUITE } from './mutation/tests-beside-the-suite.mjs'
import suiteConfig from './vitest.config.js'

// The target and the state it is made of, once for every worker: provided as verify provides its own.
const inProcess = await createInProcessTarget()

/**
 * The contract suite as the test of `npm run mutation` (stryker.config.mjs): the same files and
 * settings as `verify` (provided the same way, for a target made by mutation/in-process-target.ts),
 * answered in-process by the mock's engine (mutation/in-process-api.ts) instead of over HTTP, each test
 * file from a fresh state; and beside it the tests of test/ that hold the engine and the domain themselves
 * (mutation/tests-beside-the-suite.mjs).
 */
export default mergeConfig(
  suiteConfig,
  defineConfig({
    test: {
      // Added to the suite's include (mergeConfig joins the lists).
      include: TESTS_BESIDE_THE_SUITE.map((file) => `../${file}`),
      setupFiles: [fileURLToPath(new URL('mutation/set-up-test-file.ts', import.meta.url))],
      provide: { [SUITE_SETTINGS]: inProcess.settings, [IN_PROCESS_MOCK]: inProcess.mock },
    },
  }),
)
