/**
 * Whether dist/ is what the build made of the sources as they are now: `npm run build` skips its work when
 * it is (scripts/build.ts), and `npm pack` refuses a dist/ that is not (scripts/packed-manifest.ts).
 *
 * The sources are every file the build reads: src/ (with the files it generates there), the suite
 * (contract-tests/), the document, fixtures and schemas, the scripts, package.json, the tsconfigs, and the
 * tree npm installed (node_modules/.package-lock.json: the versions of tsc, esbuild, Ajv and faker that
 * write dist/). The stamp, kept in node_modules/.cache/ so that it is never packed, holds their hash and
 * every file of dist/ with its size and time: a dist/ changed or removed by hand is built again.
 */
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, stat } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeFileAtomically } from '../src/files/write-file-atomically.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const STAMP = join('node_modules', '.cache', 'users-api-kit', 'build-stamp.json')

const SOURCE_FOLDERS = ['src', 'contract-tests', 'openapi', 'fixtures', 'schemas', 'scripts']
const SOURCE_FILES = ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'node_modules/.package-lock.json']

interface Stamp {
  sources: string
  dist: string[]
}

/** The hash of every source of the build (in the clone at `root`), by path and content. */
export async function hashSources(root = ROOT): Promise<string> {
  const hash = createHash('sha256')
  const folders = await Promise.all(SOURCE_FOLDERS.map((folder) => filesUnder(join(root, folder))))
  const paths = [...folders.flat(), ...SOURCE_FILES.map((file) => join(root, file))].sort()
  for (const path of paths) {
    const content = await readFile(path).catch(() => undefined)
    hash.update(`${relative(root, path)}\0${content === undefined ? 'none' : content.length}\0`)
    if (content !== undefined) hash.update(content)
  }
  return hash.digest('hex')
}

/** Why dist/ is not what the build made of these sources, or undefined when it is. */
export async function whyDistIsStale(root = ROOT): Promise<string | undefined> {
  if (!existsSync(join(root, 'dist'))) return 'dist/ is not built'
  const stamp = await readFile(join(root, STAMP), 'utf8')
    .then((text) => JSON.parse(text) as Stamp)
    .catch(() => undefined)
  if (stamp === undefined) return 'no record of the build that made dist/'
  if (stamp.sources !== (await hashSources(root))) return 'the sources changed since dist/ was built'
  const now = await describeDist(root)
  if (now.length !== stamp.dist.length || now.some((line, index) => line !== stamp.dist[index]))
    return 'dist/ changed since it was built'
  return undefined
}

/** Records that dist/, as it is now, was built from the sources as they are now. */
export async function stampDist(root = ROOT): Promise<void> {
  await mkdir(dirname(join(root, STAMP)), { recursive: true })
  const stamp: Stamp = { sources: await hashSources(root), dist: await describeDist(root) }
  await writeFileAtomically(join(root, STAMP), `${JSON.stringify(stamp)}\n`, 0o644)
}

/** Every file of dist/ with its size and modification time, sorted. */
async function describeDist(root: string): Promise<string[]> {
  const dist = join(root, 'dist')
  const files = await filesUnder(dist)
  const lines = await Promise.all(
    files.map(async (path) => {
      const info = await stat(path)
      return `${relative(dist, path)} ${info.size} ${info.mtimeMs}`
    }),
  )
  return lines.sort()
}

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
}
