import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

// A project in which the documented examples run as a user's code runs: `users-api-kit` is this clone
// (its dist/, through package.json's exports), and every other package is the clone's own, linked.

const ROOT = fileURLToPath(new URL('../', import.meta.url))

/**
 * Makes `dir` a project whose node_modules links each of this clone's packages, and `users-api-kit` to
 * the clone itself. Nothing is copied, and nothing is written inside the clone.
 *
 * @example
 * await createDocExampleProject('/tmp/docs-examples')
 * // /tmp/docs-examples/node_modules/users-api-kit → the clone; …/node_modules/msw → the clone's msw
 */
export async function createDocExampleProject(dir: string): Promise<void> {
  const nodeModules = join(dir, 'node_modules')
  await mkdir(nodeModules, { recursive: true })
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'docs-examples', private: true, type: 'module' }))
  const packages = await readdir(join(ROOT, 'node_modules'))
  await Promise.all(
    packages
      .filter((name) => !name.startsWith('.'))
      .map((name) => symlink(join(ROOT, 'node_modules', name), join(nodeModules, name))),
  )
  await symlink(ROOT.replace(/\/$/, ''), join(nodeModules, 'users-api-kit'))
}

export interface BundledFile {
  name: string
  contents: Uint8Array
  /** Gzipped, at zlib's default level, in bytes. */
  gzipped: number
  /** The entry point's own file (the rest are chunks it imports). */
  entry: boolean
  /** The modules bundled into it, as esbuild's metafile names them (`node_modules/@faker-js/…`). */
  inputs: string[]
}

/**
 * A browser example bundled by esbuild as a production build would be (minified, ESM), in memory: one
 * file, or (`splitting`) the entry and a chunk at each `import()` and shared module.
 */
export async function bundleForBrowser(entryPoint: string, splitting: boolean): Promise<BundledFile[]> {
  const result = await build({
    entryPoints: [entryPoint],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    splitting,
    write: false,
    metafile: true,
    outdir: join(entryPoint, '..', 'bundle'),
    logLevel: 'silent',
  })
  const entryName = basename(entryPoint).replace(/\.ts$/, '.js')
  const inputsOf = new Map(
    Object.entries(result.metafile.outputs).map(([path, output]) => [basename(path), Object.keys(output.inputs)]),
  )
  return result.outputFiles.map((file) => ({
    name: basename(file.path),
    contents: file.contents,
    gzipped: gzipSync(file.contents).byteLength,
    entry: basename(file.path) === entryName,
    inputs: inputsOf.get(basename(file.path)) ?? [],
  }))
}
