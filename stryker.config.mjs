// @ts-check
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { THEIR_SUPPORT, TESTS_BESIDE_THE_SUITE } from './contract-tests/mutation/tests-beside-the-suite.mjs'

/**
 * Mutation testing of the mock's rules (`npm run mutation`, not part of `npm test`): StrykerJS mutates the
 * engine, the domain and the path rule the router shares with the suite (src/spec/path-templates.ts: a
 * mutant there changes the suite's operation matcher too; the scenarios' own statuses still tell), and the contract suite, answered in-process (contract-tests/vitest.mutation.config.ts),
 * must notice, with the member index's own test beside it (its brute-force comparison, bulk builds among them). Figures and the survivors' reasons: BENCHMARKS.md, "Mutation testing".
 *
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  // The code that answers the users API. Left out, as no request to the users API reaches them (their own
  // tests in test/ do): the state format (fixtures, --state-file, PUT /__mock/state) and the mock's simulated
  // conditions (Prefer, --latency, --fail-rate: docs/contract.md §7). Within the mutated files, what the
  // suite cannot tell apart by design (a detail's wording, the mock's own features) is named, with the
  // reason, in contract-tests/mutation/left-out-mutants.mjs, not marked in the code.
  mutate: [
    'src/engine/**/*.ts',
    'src/domain/**/*.ts',
    // The path rule the router shares with the suite's matcher.
    'src/spec/path-templates.ts',
    // The request target's path and query, which the engine shares with the transports and the proxy.
    'src/http/request-target.ts',
    '!src/domain/parse-state.ts',
    '!src/engine/simulated-conditions.ts',
  ],
  plugins: ['@stryker-mutator/*', './contract-tests/mutation/left-out-mutants.mjs'],
  ignorers: ['left-out-mutants'],
  testRunner: 'vitest',
  vitest: {
    configFile: 'contract-tests/vitest.mutation.config.ts',
    // The suite reaches the engine through the API, never by importing it (the path rule of spec/ aside):
    // vitest's import graph would find no test related to most mutated files.
    related: false,
  },
  // The checks' requests run in the worker, so Stryker sees which checks reach a mutant and runs only those
  // (the vitest runner reports per-check coverage whatever this says: 'all' and 'off' behave alike). Work that
  // checks of a file share is credited to the check that did it: contract-tests/mutation/coverage-per-file.ts
  // widens each check's coverage to the earlier checks of its file.
  coverageAnalysis: 'perTest',
  // Two workers on two cores; a worker runs one mutant at a time.
  concurrency: 2,
  // A sandbox holds only what the tests read: the sources, the suite, the document and the target schema,
  // and the tests of test/ it runs with what they import (.tools/ and .venv/ alone are ~470 MB).
  ignorePatterns: [
    '/*',
    '!/src',
    '!/contract-tests',
    ...[...TESTS_BESIDE_THE_SUITE, ...THEIR_SUPPORT].map((file) => `!/${file}`),
    '!/openapi',
    '!/schemas',
    '!/fixtures',
    '!/package.json',
    '!/tsconfig.json',
  ],
  // Sandboxes outside the tree: ESLint (`eslint .`) would lint one while a run lasts. Removed after any run.
  tempDirName: join(tmpdir(), 'users-api-kit-stryker'),
  cleanTempDir: 'always',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false },
}
