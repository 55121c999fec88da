/**
 * Whether a check of this run failed yet, for `--bail` (stop-after-first-failure.ts). One object for
 * the whole run: the suite runs its files in one worker that keeps its modules (contract-tests/vitest.config.ts).
 */
export const firstFailure = { seen: false }
