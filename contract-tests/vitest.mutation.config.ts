import { fileURLToPath } from 'node:url'
import { defineConfig, mergeConfig } from 'vitest/config'
import suiteConfig from './vitest.config.js'

/**
 * The contract suite as the test of `npm run mutation` (stryker.config.mjs): the same files and
 * settings as `verify`, answered in-process by the mock's engine (mutation/in-process-api.ts) instead of
 * over HTTP, each test file from a fresh state.
 */
export default mergeConfig(
  suiteConfig,
  defineConfig({
    test: {
      setupFiles: [fileURLToPath(new URL('mutation/set-up-test-file.ts', import.meta.url))],
    },
  }),
)
