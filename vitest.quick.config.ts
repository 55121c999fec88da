import { defineConfig } from 'vitest/config'
import { TESTS_BESIDE_THE_SUITE } from './contract-tests/mutation/tests-beside-the-suite.mjs'

/**
 * The unit tests of the engine, the domain and the transports: in vitest's workers, with nothing built,
 * installed or spawned (no CLI, no Schemathesis, no browser).
 */
const UNIT_TESTS = ['test/engine/**/*.test.ts', 'test/domain/**/*.test.ts', 'test/transports/**/*.test.ts']

/** What those folders hold that is not quick: a browser, and verify's CLI against the fetch handler. */
const NOT_QUICK = [
  'test/transports/msw-browser.test.ts',
  'test/transports/fetch-handler-passes-the-contract-suite.test.ts',
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
          // The mutation project runs those beside the suite.
          include: UNIT_TESTS,
          exclude: [...NOT_QUICK, ...TESTS_BESIDE_THE_SUITE],
        },
      },
      'contract-tests/vitest.mutation.config.ts',
    ],
  },
})
