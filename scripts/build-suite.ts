/**
 * The contract suite as verify runs it: dist/contract-tests/, JavaScript built from contract-tests/ by
 * esbuild, one file per scenario file and per setup file of run-suite.ts, the support modules they share
 * in chunks beside them (one copy a thread: the suite's client and document are made once). Node imports
 * them as they are, so no TypeScript is transformed when verify runs (it took ~1 s of each run).
 *
 * The kit's own modules (src/) are not bundled: they are imported from tsc's dist/, as the rest of verify
 * imports them, so that there is one copy of each. Every file lands directly in dist/contract-tests/, one
 * folder below dist/, so that `../contract/…` names them from any of them.
 *
 * Run by `npm run build` (scripts/build.ts), after tsc.
 */
import { build, type Plugin } from 'esbuild'
import { readdirSync } from 'node:fs'
import { relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SUITE = resolve(ROOT, 'contract-tests')
const SRC = resolve(ROOT, 'src')

/** The setup files run-suite.ts hands vitest (src/contract/suite/suite-files.ts). */
const SETUP_FILES = ['support/stop-after-first-failure.ts', 'support/stop-at-the-run-deadline.ts']

const kitModulesFromDist: Plugin = {
  name: 'kit-modules-from-dist',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      const path = resolve(args.resolveDir, args.path)
      if (!path.startsWith(SRC + sep)) return undefined
      return { path: `../${relative(SRC, path).split(sep).join('/')}`, external: true }
    })
  },
}

/** Builds contract-tests/ into dist/contract-tests/ (see above). */
export async function buildSuite(): Promise<void> {
  const scenarios = readdirSync(SUITE).filter((name) => name.endsWith('.contract.test.ts'))
  await build({
    entryPoints: Object.fromEntries(
      [...scenarios, ...SETUP_FILES].map((file) => [
        file.replace(/^support\//, '').replace(/\.ts$/, ''),
        resolve(SUITE, file),
      ]),
    ),
    outdir: resolve(ROOT, 'dist/contract-tests'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    packages: 'external',
    chunkNames: 'chunk-[hash]',
    plugins: [kitModulesFromDist],
    logLevel: 'warning',
  })
}
