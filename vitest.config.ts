import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // The project's own tests. contract-tests/ is the contract suite, run by `users-api-kit verify`.
    include: ['test/**/*.test.ts'],
    // Real sockets, spawned CLIs and Prefer delays: more than vitest's 5 s default.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Concurrent tests spawn processes (verify runs against broken servers): two at a time on 2 cores.
    maxConcurrency: 2,
  },
})
