// vitest globalSetup: once per run, before any test file, what the tests need beyond node_modules
// (scripts/prepare-tests.ts, also npm test's first step: a quick check once it is all there).
import { prepareTests } from '../../scripts/prepare-tests.js'

export default async function setup(): Promise<void> {
  await prepareTests()
}
