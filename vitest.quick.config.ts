import { defineConfig } from 'vitest/config'
import { TESTS_BESIDE_THE_SUITE } from './contract-tests/mutation/tests-beside-the-suite.mjs'

/**
 * The unit tests of the engine, the domain and the transports: in vitest's workers, with nothing built,
 * installed or spawned (no CLI, no Schemathesis, no browser).
 */
const UNIT_TESTS = [
  // The engine: the contract's order of checks, its answers, the document's validators.
  'test/a-400-lists-at-most-the-documented-issues.test.ts',
  'test/a-500-asked-for-is-no-unexpected-error.test.ts',
  'test/authentication.test.ts',
  'test/error-shapes.test.ts',
  'test/generated-artifacts.test.ts',
  'test/json-bodies-parsed-in-slices.test.ts',
  'test/list-users.test.ts',
  'test/odd-methods-are-answered.test.ts',
  'test/permission-table.test.ts',
  'test/rejected-requests-change-nothing.test.ts',
  'test/requests-the-engine-judges.test.ts',
  'test/simulated-conditions.test.ts',
  'test/update-user.test.ts',
  // The domain: the store, the seed, the state format.
  'test/concurrent-writes.test.ts',
  'test/fixture-file-errors.test.ts',
  'test/seed-determinism.test.ts',
  'test/state-validation.test.ts',
  'test/stored-users-are-replaced-not-changed.test.ts',
  // The transports: the fetch handler and MSW in Node.
  'test/fetch-handler-base-path.test.ts',
  'test/fetch-handler-cors.test.ts',
  'test/head-requests.test.ts',
  'test/msw-node.test.ts',
]

/**
 * `npm run test:quick`: the loop to run while changing the engine, the domain or a transport, in
 * well under two minutes. Two projects: those unit tests, and the contract suite answered in process
 * by the mock's fetch handler, with the tests of the engine and the domain the mutation run holds
 * beside it (contract-tests/vitest.mutation.config.ts, the configuration `npm run mutation` runs).
 * It runs no install route, CLI, Schemathesis or browser: `npm test` is the whole truth
 * (docs/development.md says when to run which).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          // The mutation project runs these already.
          include: UNIT_TESTS.filter((file) => !TESTS_BESIDE_THE_SUITE.includes(file)),
        },
      },
      'contract-tests/vitest.mutation.config.ts',
    ],
  },
})
