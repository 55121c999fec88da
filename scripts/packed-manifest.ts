/**
 * The package.json that `npm pack` and `npm publish` put in the tarball: this one without its `prepare`.
 * In a clone and from git, `prepare` builds the kit; in a tarball it is never run, and npm 11 still lists it
 * as a script not covered by `allowScripts` when a project installs the tarball.
 *
 *   tsx scripts/packed-manifest.ts strip     # prepack: refuse a stale dist/, keep package.json aside, drop prepare
 *   tsx scripts/packed-manifest.ts restore   # postpack: put package.json back as it was, byte for byte
 *
 * Because prepare is gone by the time npm would run it, `npm pack` packs the dist/ that `npm ci` or
 * `npm run build` made, and refuses one older than src/. (`npm pack --ignore-scripts` runs neither step.)
 */
import { existsSync } from 'node:fs'
import { readdir, readFile, rename, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeFileAtomically } from '../src/files/write-file-atomically.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const MANIFEST = join(ROOT, 'package.json')
/** package.json as it was, while a pack runs: if a pack dies before its postpack, it is still here. */
const KEPT = join(ROOT, '.package.json.before-pack')
/** The build's last output (scripts/bundle-cli.ts). */
const BUILT = join(ROOT, 'dist', 'bin', 'users-api-kit.js')

const step = process.argv[2]
if (step === 'strip') await strip()
else if (step === 'restore') await restore()
else throw new Error(`Usage: tsx scripts/packed-manifest.ts strip|restore (got ${step})`)

async function strip(): Promise<void> {
  const stale = await staleBuild()
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

/** Why dist/ cannot be packed (none built, or older than a file of src/), or undefined. */
async function staleBuild(): Promise<string | undefined> {
  if (!existsSync(BUILT)) return 'dist/ is not built'
  const built = (await stat(BUILT)).mtimeMs
  const sources = await readdir(join(ROOT, 'src'), { recursive: true, withFileTypes: true })
  for (const entry of sources.filter((candidate) => candidate.isFile())) {
    const path = join(entry.parentPath, entry.name)
    if ((await stat(path)).mtimeMs > built) return `dist/ is older than ${path.slice(ROOT.length)}`
  }
  return undefined
}
