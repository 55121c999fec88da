// `npm run setup:fuzz`: the kit's own virtualenv (.venv/, ignored by git) with the pinned Schemathesis,
// for a clone (users of the package run `users-api-kit setup-fuzz`, which uses their cache folder).
// Idempotent and fast once done. `npm test` runs it too (scripts/prepare-tests.ts), once a run.
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { SCHEMATHESIS_VERSION, VIRTUALENV_DIR } from '../src/fuzz/schemathesis-places.js'
import { PACKAGE_ROOT } from '../src/fuzz/fuzz-files.js'
import { setUpSchemathesis as setUpIn } from '../src/fuzz/set-up-schemathesis.js'

/** Makes sure `<root>/.venv` holds Schemathesis SCHEMATHESIS_VERSION; resolves to its `st`. */
export function setUpSchemathesis(root: string = PACKAGE_ROOT): Promise<string> {
  return setUpIn(join(root, VIRTUALENV_DIR))
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const st = await setUpSchemathesis()
    console.log(`Schemathesis ${SCHEMATHESIS_VERSION} is ready: ${st}`)
  } catch (error) {
    console.error(`setup:fuzz: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 1
  }
}
