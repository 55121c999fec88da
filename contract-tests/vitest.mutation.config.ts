import { fileURLToPath } from 'node:url'
import { defineConfig, mergeConfig } from 'vitest/config'
import { SUITE_SETTINGS } from '../src/contract/run/suite-settings.js'
import { createInProcessTarget, IN_PROCESS_MOCK } from './mutation/in-process-target.js'
import suiteConfig from './vitest.config.js'

// The target and the state it is made of, once for every worker: provided as verify provides its own.
const inProcess = await createInProcessTarget()

/**
 * The contract suite as the test of `npm run mutation` (stryker.config.mjs): the same files and
 * settings as `verify` (provided the same way, for a target made by mutation/in-process-target.ts),
 * answered in-process by the mock's engine (mutation/in-process-api.ts) instead of over HTTP, each test
 * file from a fresh state; and beside it test/member-index.test.ts, which holds the
 * member index (list order, role filter, search) to a brute-force filter, bulk builds included,
 * test/member-index-parts.test.ts, its parts (the memo, the pending changes, the lists), and
 * test/engine-details.test.ts: the guards no request to the kit's document reaches, the mock's own choices;
 * test/path-templates.test.ts: the path rule the router shares with the suite.
 */
export default mergeConfig(
  suiteConfig,
  defineConfig({
    test: {
      // Added to the suite's include (mergeConfig joins the lists).
      include: [
        '../test/member-index.test.ts',
        '../test/member-index-parts.test.ts',
        '../test/engine-details.test.ts',
        '../test/path-templates.test.ts',
      ],
      setupFiles: [fileURLToPath(new URL('mutation/set-up-test-file.ts', import.meta.url))],
      provide: { [SUITE_SETTINGS]: inProcess.settings, [IN_PROCESS_MOCK]: inProcess.mock },
    },
  }),
)
