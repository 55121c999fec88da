import type { InlineConfig, TestSequencerConstructor } from 'vitest/node'
import type { BaseSequencer } from 'vitest/node'
import { CONTRACT_SENTENCES } from '../rules/contract-sentences.js'

/**
 * The contract suite's vitest settings, wherever it runs: `verify` runs the files built with the package
 * (run-suite.ts), `npm run mutation` the TypeScript sources (contract-tests/vitest.config.ts).
 */
export const SUITE_TEST_SETTINGS = {
  // The kit may be installed under node_modules: nothing here is excluded for living there.
  exclude: [],
  testTimeout: 30_000,
  hookTimeout: 30_000,
  // Files share nothing (each owns its disposable users); they run in threads that keep their modules
  // between files (the document loaded and its schemas compiled once a thread, not once a file).
  fileParallelism: true,
  pool: 'threads',
  isolate: false,
  // One tag per sentence of docs/contract.md: a check names the sentences it proves (support/covers.ts),
  // and vitest refuses a tag that names none (strictTags, its default).
  tags: CONTRACT_SENTENCES.map(({ id, text }) => ({ name: id, description: text })),
} satisfies InlineConfig

/**
 * The files whose checks mostly wait (a webhook delivery, a retry the backend sends seconds later): they
 * start first, in a thread of their own, so that their waits run beside the rest of the suite.
 */
const WAITING_FILES = ['webhooks']

/**
 * Where verify says that every other file has ended, to the thread of the waiting files: it runs nothing
 * after them (other files run one at a time, as their checks expect: one file's promotion of a user to
 * owner would otherwise change the lists another file compares).
 */
export const OTHER_FILES_ENDED = 'users-api-kit verify: the other files have ended'

/** Whether a file of the suite (source or built) is one whose checks mostly wait. */
export function isWaitingFile(moduleId: string): boolean {
  return WAITING_FILES.some((name) => /[\\/]([^\\/]+)\.contract\.test\.[jt]s$/.exec(moduleId)?.[1] === name)
}

/**
 * vitest's order (by size, without a cache), with the waiting files first: given the vitest the kit
 * loaded (vitest is an optional peer, imported when `verify` runs).
 */
export function waitingFilesFirst(Base: typeof BaseSequencer): TestSequencerConstructor {
  return class WaitingFilesFirst extends Base {
    override async sort(files: Parameters<BaseSequencer['sort']>[0]) {
      const sorted = await super.sort(files)
      return [...sorted].sort((a, b) => Number(isWaitingFile(b.moduleId)) - Number(isWaitingFile(a.moduleId)))
    }
  }
}
