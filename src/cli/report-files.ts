import { resolve } from 'node:path'

/** The names of the reports each command writes into `--out DIR`: one name per report, whoever writes it. */
export const REPORT_FILES = {
  verifyJunit: 'users-api-kit-verify.xml',
  verifyJson: 'users-api-kit-verify.json',
  verifyHtml: 'users-api-kit-verify.html',
  fuzzJunit: 'users-api-kit-fuzz.xml',
  gateJunit: 'users-api-kit-gate.xml',
  proxyJunit: 'users-api-kit-proxy.xml',
  proxyJson: 'users-api-kit-proxy.json',
} as const

/**
 * Where one report goes: the file its own flag names, else its name in `--out DIR`, else nowhere. The
 * folder is the user's: reports written there stay (nothing the kit prints as a path is removed).
 *
 * @example
 * reportPath('out', 'users-api-kit-verify.xml', undefined) // '/home/you/project/out/users-api-kit-verify.xml'
 */
export function reportPath(out: string | undefined, name: string, given: string | undefined): string | undefined {
  if (given !== undefined) return given
  return out === undefined ? undefined : resolve(out, name)
}
