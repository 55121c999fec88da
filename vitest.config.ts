import { defineConfig } from 'vitest/config'
import SlowFilesFirst from './test/support/slow-files-first.js'

export default defineConfig({
  test: {
    // The project's own tests. contract-tests/ is the contract suite, run by `users-api-kit verify`.
    include: ['test/**/*.test.ts'],
    // Node 22 and 24, Schemathesis, Debian's packages the tests drive: brought on the first run, checked after.
    globalSetup: ['test/support/prepare-tests.ts'],
    // Real sockets, spawned CLIs and Prefer delays: more than vitest's 5 s default.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Concurrent tests spawn processes (verify runs against broken servers): two at a time on 2 cores.
    maxConcurrency: 2,
    // Three files at a time on 2 cores (vitest's default is one less than the cores: one here). Most files
    // wait on sockets, child processes, npm and deadlines as much as they compute (on a busy machine the
    // kill rate used 354 s of CPU in 638 s, cli-verify, hostile-servers and answers-are-read-within-limits
    // 165 s in 360 s): a third file keeps both cores busy while the others wait.
    maxWorkers: 3,
    // The files that take minutes start first, longest first, so that the workers end together.
    sequence: { sequencer: SlowFilesFirst },
  },
})
