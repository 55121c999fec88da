import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

/**
 * The contract suite's own configuration: `users-api-kit verify` runs it through vitest's Node API
 * against one target (src/contract/run-suite.ts). It is not part of `npm test`'s include.
 */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['**/*.contract.test.ts'],
    // The kit may be installed under node_modules: nothing here is excluded for living there.
    exclude: [],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Files share nothing (each owns its disposable users), so they run in parallel, in threads that
    // keep their modules between files: loading the document and compiling its schemas once per
    // worker instead of once per file takes the suite from ~12 s to ~5 s here.
    fileParallelism: true,
    pool: 'threads',
    isolate: false,
  },
})
