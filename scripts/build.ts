/**
 * `npm run build`: dist/ from src/, the contract suite and the document, in four steps. Skipped when dist/ is
 * what the build made of the sources as they are (scripts/build-fingerprint.ts): npm builds a kit installed
 * from git twice (`npm install` in its clone runs prepare, then packing it runs prepare again), and npm ci,
 * then npm start or npm test, built a clone twice as well. `npm run build -- --force` builds anyway.
 *
 * tsc does not check types here (`--noCheck`, half its time): `npm run lint` and `npm test` do, and a user's
 * install from git has nothing to gain from it.
 */
// First: on a Node too old for the kit, the build (and npm ci's prepare, npm start, npm test) stops here with
// one line, where an npm without devEngines (npm 10.8, Node 20's) let the install through.
import '../src/cli/stop-on-an-older-node.js'
import { execFileSync } from 'node:child_process'
import { rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildSuite } from './build-suite.js'
import { bundleCli } from './bundle-cli.js'
import { stampDist, whyDistIsStale } from './build-fingerprint.js'
import { writeArtifacts } from './generate-artifacts.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

if (!process.argv.includes('--force') && (await whyDistIsStale()) === undefined) {
  console.log('users-api-kit: dist/ is already built from these sources (npm run build -- --force builds it anyway).')
} else {
  // 1. The validators, operation table, document and seed the engine and the suite need (src/…/generated/).
  await writeArtifacts()
  // 2. tsc only ever adds to dist/: a module removed from src/ would stay there, and be packed and shipped.
  await rm(join(ROOT, 'dist'), { recursive: true, force: true })
  // 3. tsc: dist/ as the library, the other commands and the suite import it.
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
  try {
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noCheck'], { cwd: ROOT, stdio: 'inherit' })
  } catch {
    console.error('users-api-kit: tsc could not compile src/ (above); dist/ is not built.')
    process.exit(1)
  }
  // 4. The command's bundle, and the suite as JavaScript.
  await bundleCli()
  await buildSuite()
  await stampDist()
}
