import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { readPackageManifest } from './read-package-manifest.js'

/** The kit's optional peer dependencies: installed by the projects that use what needs them. */
export type OptionalPeer = 'msw' | 'vitest'

/**
 * Why the project cannot use what needs `peer`, in one line ending with the command that mends it;
 * undefined when the installed version has the major version package.json's peerDependencies names.
 * Read from the peer's package.json, without loading it.
 *
 * @example
 * await findPeerProblem('vitest', 'verify runs the contract suite on vitest')
 * // 'verify runs the contract suite on vitest, an optional peer dependency of users-api-kit that this project does not have: npm install --save-dev vitest@^5.1.1'
 */
export async function findPeerProblem(peer: OptionalPeer, purpose: string): Promise<string | undefined> {
  const range = (await readPackageManifest()).peerDependencies[peer] ?? 'latest'
  const install = `npm install --save-dev ${peer}@${range}`
  const installed = await readInstalledVersion(peer)
  if (installed === undefined) {
    return `${purpose}, an optional peer dependency of users-api-kit that this project does not have: ${install}`
  }
  const major = /\d+/.exec(range)?.[0]
  if (major !== undefined && installed.split('.')[0] !== major) {
    return `${purpose} ${range}; this project has ${peer} ${installed}: ${install}`
  }
  return undefined
}

/** The version of the package the kit's modules resolve `peer` to, or undefined when there is none. */
async function readInstalledVersion(peer: OptionalPeer): Promise<string | undefined> {
  try {
    const manifest = createRequire(import.meta.url).resolve(`${peer}/package.json`)
    return (JSON.parse(await readFile(manifest, 'utf8')) as { version: string }).version
  } catch {
    return undefined
  }
}
