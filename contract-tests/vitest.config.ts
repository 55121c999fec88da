import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { CONTRACT_SENTENCES } from '../src/contract/rules/contract-sentences.js'

/**
 * The contract suite's own configuration: `users-api-kit verify` runs it through vitest's Node API
 * against one target (src/contract/run/run-suite.ts). It is not part of `npm test`'s include.
 */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['**/*.contract.test.ts'],
    // The kit may be installed under node_modules: nothing here is excluded for living there.
    exclude: [],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Files share nothing (each owns its disposable users); they run in a thread that keeps its modules
    // between files (the document loaded and its schemas compiled once, not once a file: ~12 s to ~5 s
    // here). verify runs one such thread (src/contract/run/run-suite.ts): each more cost 60-70 MiB.
    fileParallelism: true,
    pool: 'threads',
    isolate: false,
    // One tag per sentence of docs/contract.md: a check names the sentences it proves (support/covers.ts),
    // and vitest refuses a tag that names none (strictTags, its default).
    tags: CONTRACT_SENTENCES.map(({ id, text }) => ({ name: id, description: text })),
  },
})
