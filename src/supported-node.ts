/** The oldest Node the kit supports: `engines.node` of package.json (test/install/an-older-node-is-told-in-one-line.test.ts keeps them equal). */
export const MINIMUM_NODE = '22.13.0'

/**
 * One line saying which Node the kit needs, or undefined when `version` (`process.versions.node`) is
 * recent enough, or absent (a browser running the MSW handlers).
 *
 * @example
 * unsupportedNodeMessage('20.19.0') // 'users-api-kit needs Node 22.13.0 or later; this is Node 20.19.0. …'
 */
export function unsupportedNodeMessage(version: string | undefined): string | undefined {
  if (version === undefined) return undefined
  const [major = 0, minor = 0] = version.split('.').map(Number)
  const [minMajor = 0, minMinor = 0] = MINIMUM_NODE.split('.').map(Number)
  if (major > minMajor || (major === minMajor && minor >= minMinor)) return undefined
  return `users-api-kit needs Node ${MINIMUM_NODE} or later; this is Node ${version}. Install Node 22 or 24 (https://nodejs.org).`
}
