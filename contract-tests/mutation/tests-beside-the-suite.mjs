// @ts-check

/**
 * The tests of test/ that `npm run mutation` runs beside the contract suite (contract-tests/vitest.mutation.config.ts
 * includes them), and every file of test/ they import: Stryker copies these into its sandbox (stryker.config.mjs),
 * so that a test named here is run, not silently missing. test/contract-suite/left-out-mutants.test.ts checks that what they
 * import is copied.
 */
export const TESTS_BESIDE_THE_SUITE = [
  // The member index (list order, role filter, search) held to a brute-force filter, bulk builds included.
  'test/domain/member-index.test.ts',
  // Its parts: the memo, the pending changes, the lists.
  'test/domain/member-index-parts.test.ts',
  // The guards no request to the kit's document reaches, the mock's own choices.
  'test/engine/engine-details.test.ts',
  // The path rule the router shares with the suite.
  'test/engine/path-templates.test.ts',
]

/** What those tests import from test/ (their own support). */
export const THEIR_SUPPORT = ['test/support/member-index-reference.ts']
