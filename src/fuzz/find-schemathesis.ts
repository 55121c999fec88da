import { delimiter, join } from 'node:path'
import { SCHEMATHESIS_VERSION, schemathesisIn, userVirtualenvDir, VIRTUALENV_DIR } from './schemathesis-places.js'
import { AppError } from '../errors.js'

export interface SchemathesisLookup {
  /** `--schemathesis PATH`. */
  option?: string
  /** SCHEMATHESIS_BIN and PATH are read from here. */
  env: Record<string, string | undefined>
  /** The kit's package root, which holds `.venv/` once `npm run setup:fuzz` ran. */
  packageRoot: string
  /** A clone (scripts/setup-fuzz.ts exists) is told `npm run setup:fuzz`; an installed package, pip. */
  isClone: boolean
  platform?: NodeJS.Platform
  isExecutable: (path: string) => boolean
}

export interface SchemathesisLocation {
  path: string
  source: '--schemathesis' | 'SCHEMATHESIS_BIN' | 'virtualenv' | 'setup-fuzz' | 'PATH'
}

/**
 * Finds the `st` executable, in order: `--schemathesis PATH`, `SCHEMATHESIS_BIN`, the kit's virtualenv
 * (`.venv/bin/st` at the package root, a clone's), the one `users-api-kit setup-fuzz` made in the user's
 * cache folder, `st` on PATH. A path given explicitly that is not executable is
 * an error, never skipped: the user asked for that one.
 *
 * @throws AppError('VALIDATION_FAILED') whose message says the one command that installs it.
 * @example
 * findSchemathesis({ env: process.env, packageRoot, isClone: true, isExecutable }) // { path: '…/.venv/bin/st', source: 'virtualenv' }
 */
export function findSchemathesis(lookup: SchemathesisLookup): SchemathesisLocation {
  const explicit: Array<[SchemathesisLocation['source'], string | undefined]> = [
    ['--schemathesis', lookup.option],
    ['SCHEMATHESIS_BIN', lookup.env.SCHEMATHESIS_BIN],
  ]
  for (const [source, path] of explicit) {
    if (!path) continue
    if (lookup.isExecutable(path)) return { path, source }
    throw new AppError('VALIDATION_FAILED', `${source} ${path} is not an executable file.\n${installHint(lookup)}`)
  }
  const windows = (lookup.platform ?? process.platform) === 'win32'
  const virtualenv = windows
    ? join(lookup.packageRoot, VIRTUALENV_DIR, 'Scripts', 'st.exe')
    : join(lookup.packageRoot, VIRTUALENV_DIR, 'bin', 'st')
  if (lookup.isExecutable(virtualenv)) return { path: virtualenv, source: 'virtualenv' }
  const ofUser = userVirtualenvDir(lookup.env)
  const ofSetup = ofUser === undefined ? undefined : schemathesisIn(ofUser, windows ? 'win32' : 'linux')
  if (ofSetup !== undefined && lookup.isExecutable(ofSetup)) return { path: ofSetup, source: 'setup-fuzz' }
  const pathDirectories = (lookup.env.PATH ?? lookup.env.Path ?? '').split(delimiter).filter(Boolean)
  for (const directory of pathDirectories) {
    const candidate = join(directory, windows ? 'st.exe' : 'st')
    if (lookup.isExecutable(candidate)) return { path: candidate, source: 'PATH' }
  }
  throw new AppError('VALIDATION_FAILED', `Schemathesis is not installed.\n${installHint(lookup)}`)
}

/** The one command that installs the pinned Schemathesis where the kit finds it. */
export function installHint(lookup: Pick<SchemathesisLookup, 'isClone'>): string {
  return lookup.isClone
    ? 'Install it with: npm run setup:fuzz   (a virtualenv in .venv/ with Schemathesis ' + SCHEMATHESIS_VERSION + ')'
    : `Install it with: npx users-api-kit setup-fuzz   (a private virtual environment with Schemathesis ${SCHEMATHESIS_VERSION} in your cache folder; or set SCHEMATHESIS_BIN, or pass --schemathesis PATH)`
}
