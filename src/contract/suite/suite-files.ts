import { fileURLToPath } from 'node:url'

/**
 * Where the contract suite is: its sources in contract-tests/, shipped with the package for people to
 * read, and the JavaScript `npm run build` makes of them in dist/contract-tests/ (scripts/build-suite.ts),
 * which `verify` runs: nothing is transformed at run time.
 */
export const BUILT_SUITE_DIR = fileURLToPath(new URL('../../contract-tests/', import.meta.url))
export const SOURCE_SUITE_DIR = fileURLToPath(new URL('../../../contract-tests/', import.meta.url))

/** The built files' names: `webhooks.contract.test.js`. */
export const BUILT_SUITE_FILES = '*.contract.test.js'

/** --bail: the checks after the first failure are skipped as not run, so that every check is still counted. */
export const STOP_AFTER_FIRST_FAILURE = `${BUILT_SUITE_DIR}stop-after-first-failure.js`

/** --run-timeout: no check starts once the run's deadline has passed. */
export const STOP_AT_THE_RUN_DEADLINE = `${BUILT_SUITE_DIR}stop-at-the-run-deadline.js`

/** A built file of the suite, by its name: `/kit/dist/contract-tests/get-user.contract.test.js`. */
const BUILT_FILE = new RegExp(`${escapeRegExp(BUILT_SUITE_DIR)}([a-z0-9-]+)\\.contract\\.test\\.js`, 'g')

/** A built file named alone, relative to the suite's folder (JUnit's suite and class names). */
const BUILT_NAME = /\b([a-z0-9-]+)\.contract\.test\.js\b/g

/**
 * Each built file of the suite in a text (a path, a JUnit or JSON report) named by the source it was made
 * from: reports name the file a reader can open, and the HTML report reads its `// CONTRACT §N` comment
 * there.
 *
 * @example
 * withSourceNames('/kit/dist/contract-tests/get-user.contract.test.js') // '/kit/contract-tests/get-user.contract.test.ts'
 * withSourceNames('classname="get-user.contract.test.js"') // 'classname="get-user.contract.test.ts"'
 */
export function withSourceNames(text: string): string {
  return text
    .replace(BUILT_FILE, (_match, name: string) => `${SOURCE_SUITE_DIR}${name}.contract.test.ts`)
    .replace(BUILT_NAME, (_match, name: string) => `${name}.contract.test.ts`)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
