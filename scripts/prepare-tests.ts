// `npm test`'s first step, and vitest's global setup (test/support/prepare-tests.ts): what the tests need
// beyond node_modules, brought once. What npm and PyPI can bring comes by itself: Node 22 and 24 into
// .tools/ (scripts/install-node.mjs), Schemathesis into .venv/ (scripts/setup-fuzz.ts). What only the
// system can bring (Debian's packages) is installed where the run may (as root), else said in one line at
// the start: the tests that need it are skipped, visibly, or, with CI set, the run stops at once.
import { existsSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { execa } from 'execa'
import { installMissingNodes } from './install-node.mjs'
import { setUpSchemathesis } from './setup-fuzz.js'
import { CHROMIUM } from '../test/support/chromium.js'
import { findPostgresBin } from '../test/support/postgres-server.js'

/** A system package some tests drive, and how to tell it is there. */
export interface SystemPackage {
  /** Debian's package name. */
  name: string
  /** What needs it, for the line that says it is missing. */
  neededBy: string
  present: () => boolean
}

/** Debian's packages the tests drive (none is downloaded by a test tool). */
export const SYSTEM_PACKAGES: SystemPackage[] = [
  { name: 'chromium', neededBy: 'the browser tests', present: () => existsSync(CHROMIUM) },
  {
    name: 'postgresql',
    neededBy: "the users-service example's tests on a PostgreSQL server",
    present: () => findPostgresBin() !== undefined,
  },
]

/** The line a run prints, and where it may, installs: the README gives the same command. */
export function installCommand(packages: SystemPackage[]): string {
  return `sudo apt-get install -y ${packages.map((pkg) => pkg.name).join(' ')}`
}

/** Whether this process may install system packages: root with apt-get (as a CI container runs). */
function mayInstallSystemPackages(): boolean {
  return process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')
}

async function installSystemPackages(packages: SystemPackage[], log: (line: string) => void): Promise<void> {
  log(`Installing ${packages.map((pkg) => pkg.name).join(', ')} from Debian's packages (apt-get, as root) …`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  await execa('apt-get', ['update', '-qq'], { env })
  await execa('apt-get', ['install', '-y', '-qq', ...packages.map((pkg) => pkg.name)], { env })
}

export interface SystemPackageOptions {
  packages?: SystemPackage[]
  /** Whether the run may install them (root with apt-get, by default). */
  mayInstall?: boolean
  env?: Record<string, string | undefined>
  log?: (line: string) => void
}

/**
 * Installs the missing system packages where the run may; one still missing is said in one line, and with
 * `CI` set (CI must run every test) that is an error, thrown before any test runs.
 */
export async function bringSystemPackages(options: SystemPackageOptions = {}): Promise<void> {
  const { packages = SYSTEM_PACKAGES, env = process.env, log = console.log } = options
  let missing = packages.filter((pkg) => !pkg.present())
  if (missing.length > 0 && (options.mayInstall ?? mayInstallSystemPackages())) {
    await installSystemPackages(missing, log).catch((error: unknown) =>
      log(`apt-get failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`),
    )
    missing = packages.filter((pkg) => !pkg.present())
  }
  if (missing.length === 0) return
  const what = missing.map((pkg) => `${pkg.name} (${pkg.neededBy})`).join(', ')
  if (env['CI']) throw new Error(`missing ${what}, which CI must run: ${installCommand(missing)}`)
  log(`Skipping what needs ${what}: not installed (${installCommand(missing)}).`)
}

/** Brings what the tests need beyond node_modules (see above). */
export async function prepareTests(log: (line: string) => void = console.log): Promise<void> {
  installMissingNodes([22, 24], log)
  await bringSystemPackages({ log })
  await setUpSchemathesis()
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    await prepareTests()
  } catch (error) {
    console.error(`npm test: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 1
  }
}
