// vitest globalSetup: once per run, before any test file, the kit's virtualenv with the pinned
// Schemathesis (scripts/setup-fuzz.ts; a few seconds' check once it is there). The fuzz and gate tests
// run the CLI, which finds it in .venv/ like a developer's `npm run setup:fuzz` would leave it.
import { setUpSchemathesis } from '../../scripts/setup-fuzz.js'

export default async function setup(): Promise<void> {
  await setUpSchemathesis()
}
