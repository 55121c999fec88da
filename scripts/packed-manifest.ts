/**
 * The package.json that `npm pack` and `npm publish` put in the tarball: this one without its `prepare`.
 * In a clone and from git, `prepare` builds the kit; in a tarball it is never run, and npm 11 still lists it
 * as a script not covered by `allowScripts` when a project installs the tarball.
 *
 *   tsx scripts/packed-manifest.ts strip     # prepack: refuse a stale dist/, keep package.json aside, drop prepare
 *   tsx scripts/packed-manifest.ts restore   # postpack: put package.json back as it was, byte for byte
 *
 * Because prepare is gone by the time npm would run it, `npm pack` packs the dist/ that `npm ci` or
 * `npm run build` made, and refuses one that is not what the build makes of the sources now (scripts/build-fingerprint.ts).
 * (`npm pack --ignore-scripts` runs neither step.)
 */
import { existsSync } from 'node:fs'
import { readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeFileAtomically } from '../src/files/write-file-atomically.js'
import { whyDistIsStale } from './build-fingerprint.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const MANIFEST = join(ROOT, 'package.json')
/** package.json as it was, while a pack runs: if a pack dies before its postpack, it is still here. */
const KEPT = join(ROOT, '.package.json.before-pack')

const step = process.argv[2]
if (step === 'strip') await strip()
else if (step === 'restore') await restore()
else throw new Error(`Usage: tsx scripts/packed-manifest.ts strip|restore (got ${step})`)

async function strip(): Promise<void> {
  const stale = await whyDistIsStale()
  if (stale !== undefined) {
    console.error(`users-api-kit: ${stale}; run npm run build, then npm pack.`)
    process.exit(1)
  }
  if (existsSync(KEPT)) {
    console.error(
      `users-api-kit: ${KEPT} is left from a pack that did not end; check it, move it back to package.json.`,
    )
    process.exit(1)
  }
  const text = await readFile(MANIFEST, 'utf8')
  await writeFile(KEPT, text)
  const manifest = JSON.parse(text) as { scripts?: Record<string, string> }
  delete manifest.scripts?.['prepare']
  // Whole or not at all: what reads package.json meanwhile (vite resolving a test file, npm) never meets it
  // empty, as a test file started beside `npm pack` once did.
  await writeFileAtomically(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`, 0o644)
}

async function restore(): Promise<void> {
  if (existsSync(KEPT)) await rename(KEPT, MANIFEST)
}
