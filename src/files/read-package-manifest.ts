import { readFile } from 'node:fs/promises'

/** The kit's package.json, two levels above this module in src/files/ and in dist/files/ alike. */
const MANIFEST_URL = new URL('../../package.json', import.meta.url)

/** What the kit reads of its own package.json at run time. */
export interface PackageManifest {
  version: string
  engines: { node: string }
  peerDependencies: Record<string, string>
  repository?: { url: string }
}

/**
 * The kit's own package.json, in a clone and in an installed package (where `dist/` has none).
 *
 * @example
 * (await readPackageManifest()).version // '0.1.0'
 */
export async function readPackageManifest(): Promise<PackageManifest> {
  return JSON.parse(await readFile(MANIFEST_URL, 'utf8')) as PackageManifest
}
