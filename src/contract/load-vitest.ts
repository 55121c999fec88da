import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type * as VitestNode from 'vitest/node'
import { AppError } from '../errors.js'
import { readPackageManifest } from '../files/read-package-manifest.js'

/**
 * vitest's Node API, which runs the contract suite. vitest is an optional peer dependency of the kit
 * (docs/decisions/0011-vitest-an-optional-peer.md): a project that uses the mock alone never installs
 * its toolchain, and `verify` and `gate` ask for it in one line.
 *
 * @throws AppError('VALIDATION_FAILED') naming the vitest to install, when none is installed or its
 * major version is not the one the kit runs on.
 * @example
 * const { startVitest } = await loadVitest()
 */
export async function loadVitest(): Promise<typeof VitestNode> {
  const problem = await findVitestProblem()
  if (problem !== undefined) throw new AppError('VALIDATION_FAILED', problem)
  return import('vitest/node')
}

/**
 * Why the installed vitest cannot run the suite, in one line with the command that mends it; undefined
 * when it can. Read from vitest's package.json, without loading vitest (gate asks before anything runs).
 */
export async function findVitestProblem(): Promise<string | undefined> {
  const range = (await readPackageManifest()).peerDependencies['vitest'] ?? 'latest'
  const install = `npm install --save-dev vitest@${range}`
  const installed = await readInstalledVitestVersion()
  if (installed === undefined) {
    return `verify runs the contract suite on vitest, an optional peer dependency of users-api-kit that this project does not have: ${install}`
  }
  const wanted = /\d+/.exec(range)?.[0]
  if (wanted !== undefined && installed.split('.')[0] !== wanted) {
    return `verify runs the contract suite on vitest ${range}; this project has vitest ${installed}: ${install}`
  }
  return undefined
}

/** The version of the vitest the kit's modules resolve to, or undefined when there is none. */
async function readInstalledVitestVersion(): Promise<string | undefined> {
  try {
    const manifest = createRequire(import.meta.url).resolve('vitest/package.json')
    return (JSON.parse(await readFile(manifest, 'utf8')) as { version: string }).version
  } catch {
    return undefined
  }
}
