/**
 * The `users-api-kit` command as users run it: dist/bin/users-api-kit.js, built from tsc's dist/cli/main.js
 * with the mock's modules in a few files. Node loads ECMAScript modules one by one (resolve, read, compile),
 * and the mock's start reads ~90 of them: ~30 ms of a ~230 ms cold start (BENCHMARKS.md). What a start
 * needs is in the bundle, what a request loads later stays behind a dynamic import (its own chunk), and
 * npm packages are imported as they are.
 *
 * The other commands (verify, fuzz, gate, proxy, …) are left as tsc wrote them, imported from dist/cli/:
 * verify's suite runs in vitest's workers from dist/contract/, and one copy of those modules is simpler
 * than two. dist/bin/ sits as deep as every dist/ folder, so paths read relative to a module
 * (`new URL('../../openapi/users.yaml', import.meta.url)`) stay right.
 *
 * Run by `npm run build`, after tsc.
 */
import { build, type Plugin } from 'esbuild'
import { fileURLToPath } from 'node:url'

const ROOT = new URL('..', import.meta.url)
const BUNDLED_COMMAND = './mock-command.js'

/**
 * main.js loads each command on demand: all but the mock's stay tsc's files, imported from dist/cli/.
 * So does the Node version check: bundled, it would run after the modules main.js imports beside it;
 * left apart, it runs before everything but the shared chunks of plain functions esbuild lists first.
 */
const leftAsTscWroteThem: Plugin = {
  name: 'left-as-tsc-wrote-them',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\/[a-z-]+\.js$/ }, (args) => {
      if (!args.importer.endsWith('/dist/cli/main.js')) return undefined
      if (args.path === '../require-supported-node.js') return { path: args.path, external: true }
      if (args.path.endsWith('-command.js') && args.path !== BUNDLED_COMMAND)
        return { path: `../cli/${args.path.slice(2)}`, external: true }
      return undefined
    })
  },
}

await build({
  entryPoints: { 'users-api-kit': fileURLToPath(new URL('dist/cli/main.js', ROOT)) },
  outdir: fileURLToPath(new URL('dist/bin', ROOT)),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  chunkNames: 'chunk-[hash]',
  // tsc's maps are read in: under --enable-source-maps a stack trace names src/…ts, as it does from dist/cli/.
  sourcemap: 'linked',
  plugins: [leftAsTscWroteThem],
  logLevel: 'warning',
})
