import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { SUITE_TEST_SETTINGS } from '../src/contract/run/suite-config.js'

/**
 * The contract suite's TypeScript sources under vitest: what `npm run mutation` runs
 * (vitest.mutation.config.ts) and `npm run coverage:contract` collects. `users-api-kit verify` runs the
 * JavaScript built from them with the same settings (src/contract/run/run-suite.ts). Not part of
 * `npm test`'s include.
 */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['**/*.contract.test.ts'],
    ...SUITE_TEST_SETTINGS,
  },
})
