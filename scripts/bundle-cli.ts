/**
 * The `users-api-kit` command as users run it: dist/bin/users-api-kit.js, built from tsc's dist/cli/main.js
 * with the mock's modules in a few files. Node loads ECMAScript modules one by one (resolve, read, compile),
 * and the mock's start reads ~90 of them: ~30 ms of a ~230 ms cold start (BENCHMARKS.md). What a start
 * needs is in the bundle, what a request loads later stays behind a dynamic import (its own chunk), and
 * npm packages are imported as they are.
 *
 * The other commands (verify, fuzz, gate, proxy, …) are left as tsc wrote them, imported from dist/cli/:
 * verify's suite runs in vitest's workers from dist/contract/, and one copy of those modules is simpler
 * than two. The mock's modules sit two folders deep (dist/server/, dist/seed/, …), as dist/bin/ does, so
 * the paths they read relative to themselves (`new URL('../../openapi/users.yaml', import.meta.url)`) stay
 * right; a bundled module at another depth that reads such paths (dist/contract/…) fails the build.
 *
 * Run by `npm run build` (scripts/build.ts), after tsc.
 */
import { build, type Plugin } from 'esbuild'
import { readFileSync } from 'node:fs'
import { relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const MAIN = resolve(ROOT, 'dist/cli/main.js')
const BUNDLED_COMMAND = './mock-command.js'
const NODE_CHECK = './stop-on-an-older-node.js'

/**
 * main.js loads each command on demand: all but the mock's stay tsc's files, imported from dist/cli/.
 * So does the Node version check: bundled, it would run after the modules main.js imports beside it;
 * left apart, it runs before everything but the shared chunks esbuild lists first (functions and
 * constants, nothing that needs a newer Node).
 */
const leftAsTscWroteThem: Plugin = {
  name: 'left-as-tsc-wrote-them',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\/[a-z-]+\.js$/ }, (args) => {
      // Compared as paths, not as strings: esbuild names the importer with the platform's separators.
      if (resolve(args.importer) !== MAIN) return undefined
      if (args.path === NODE_CHECK || (args.path.endsWith('-command.js') && args.path !== BUNDLED_COMMAND))
        return { path: `../cli/${args.path.slice(2)}`, external: true }
      return undefined
    })
  },
}

/** Bundles dist/cli/main.js into dist/bin/ (see above), and refuses a module bundled at the wrong depth. */
export async function bundleCli(): Promise<void> {
  const { metafile } = await build({
    entryPoints: { 'users-api-kit': MAIN },
    outdir: resolve(ROOT, 'dist/bin'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    chunkNames: 'chunk-[hash]',
    // tsc's maps are read in: under --enable-source-maps a stack trace names src/…ts, as it does from dist/cli/.
    sourcemap: 'linked',
    metafile: true,
    plugins: [leftAsTscWroteThem],
    logLevel: 'warning',
  })

  // A module that reads paths relative to itself reads them wrongly from dist/bin/ unless it sits two folders
  // deep as well (a command bundled by mistake, or a new import of dist/contract/ from the mock): refused
  // here rather than at a user's run.
  const misplaced = Object.keys(metafile.inputs).filter((input) => {
    const parts = relative(resolve(ROOT, 'dist'), resolve(ROOT, input)).split(sep)
    return (
      parts[0] !== '..' &&
      parts.length !== 2 &&
      /import\.meta\.(?:url|dirname|filename)/.test(readFileSync(resolve(ROOT, input), 'utf8'))
    )
  })
  if (misplaced.length > 0) {
    throw new Error(
      `The command's bundle holds modules that read paths relative to themselves from another depth than dist/bin/: ${misplaced.join(', ')}. See scripts/bundle-cli.ts.`,
    )
  }
}
