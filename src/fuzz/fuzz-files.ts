import { fileURLToPath } from 'node:url'

// Two levels below the package root, from src/fuzz/ and from dist/fuzz/ alike.
/** The kit's package root (a clone, or node_modules/users-api-kit). */
export const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** The safety and authentication hooks Schemathesis loads (SCHEMATHESIS_HOOKS). */
export const HOOKS_FILE = fileURLToPath(new URL('../../src/fuzz/schemathesis-hooks.py', import.meta.url))

/** The Schemathesis configuration (`st --config-file`). */
export const CONFIG_FILE = fileURLToPath(new URL('../../src/fuzz/schemathesis.toml', import.meta.url))

/** Only a clone has it: there, `npm run setup:fuzz` installs Schemathesis. */
export const SETUP_SCRIPT = fileURLToPath(new URL('../../scripts/setup-fuzz.ts', import.meta.url))
