import { readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { promisify } from 'node:util'
import { gzip } from 'node:zlib'
import { build, version, type Metafile } from 'esbuild'
import type { Report } from './report.js'
import { ROOT } from './server-process.js'

const gzipAsync = promisify(gzip)

/** What an app imports; msw is the app's own (a peer dependency), so it is left out of the bundle. */
const APP = "export { createMockHandlers } from 'ENTRY'"
/** The app's name in the metafile (its `entryPoint`). */
const APP_FILE = 'app.js'
const EXTERNAL = ['msw', 'msw/*']

/**
 * Part 6: the browser bundle of `users-api-kit/msw`, as an app's bundler makes it (esbuild, minified,
 * ESM, code splitting). With the default seed the browser loads the entry chunk and its static imports;
 * faker sits behind a dynamic import that only a custom seed takes, so its chunks are counted apart.
 * Sizes are gzip's (zlib's default level), per file, as a server would send them. Build first.
 */
export async function measureMswBundle(scratch: string): Promise<Report['mswBundle']> {
  const entry = await resolveMswEntry()
  const result = await build({
    stdin: { contents: APP.replace('ENTRY', entry), resolveDir: ROOT, sourcefile: APP_FILE, loader: 'js' },
    absWorkingDir: ROOT,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    splitting: true,
    minify: true,
    external: EXTERNAL,
    outdir: join(scratch, 'msw-bundle'),
    metafile: true,
    write: false,
    logLevel: 'silent',
  })
  const outputs = result.metafile.outputs
  const entryChunk = Object.keys(outputs).find((path) => outputs[path]!.entryPoint === APP_FILE)
  if (entryChunk === undefined) throw new Error('esbuild wrote no chunk for the entry.')
  const initial = closure([entryChunk], outputs, ['import-statement'])
  const lazy = closure(dynamicImportsOf(initial, outputs), outputs, ['import-statement']).filter(
    (path) => !initial.includes(path),
  )
  const gzipped = new Map<string, number>()
  for (const file of result.outputFiles) {
    // The metafile names outputs relative to absWorkingDir.
    gzipped.set(relative(ROOT, file.path), (await gzipAsync(file.contents)).length)
  }
  const describe = (paths: string[]): Report['mswBundle']['initial'] => ({
    files: paths.length,
    bytes: paths.reduce((sum, path) => sum + outputs[path]!.bytes, 0),
    gzipBytes: paths.reduce((sum, path) => sum + (gzipped.get(path) ?? NaN), 0),
  })
  return {
    esbuild: version,
    entry: relative(ROOT, entry),
    initial: describe(initial),
    largestInputs: largestInputs(initial, outputs, 5),
    faker: describe(lazy),
  }
}

/**
 * The module a browser bundler takes for `users-api-kit/msw` from package.json's exports (the `import`
 * condition, and under it anything but `node`), else the build's dist/msw/index.js.
 */
async function resolveMswEntry(): Promise<string> {
  const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { exports?: Record<string, unknown> }
  return join(ROOT, browserEntry(pkg.exports?.['./msw']) ?? 'dist/msw/index.js')
}

function browserEntry(target: unknown): string | undefined {
  if (typeof target === 'string') return target
  if (typeof target !== 'object' || target === null) return undefined
  const conditions = target as Record<string, unknown>
  return browserEntry(conditions['browser'] ?? conditions['import'] ?? conditions['default'])
}

/** `starts` and every chunk they import, by the given kinds of import. */
function closure(starts: string[], outputs: Metafile['outputs'], kinds: string[]): string[] {
  const seen = new Set<string>()
  const visit = (path: string): void => {
    if (seen.has(path) || outputs[path] === undefined) return
    seen.add(path)
    for (const imported of outputs[path]!.imports) {
      if (!imported.external && kinds.includes(imported.kind)) visit(imported.path)
    }
  }
  starts.forEach(visit)
  return [...seen]
}

function dynamicImportsOf(paths: string[], outputs: Metafile['outputs']): string[] {
  return paths.flatMap((path) =>
    outputs[path]!.imports.filter((imported) => imported.kind === 'dynamic-import').map((imported) => imported.path),
  )
}

/** The source files that take the most of the initial chunks (minified bytes), to say what to trim. */
function largestInputs(
  paths: string[],
  outputs: Metafile['outputs'],
  count: number,
): Array<{ path: string; bytes: number }> {
  const bytes = new Map<string, number>()
  for (const path of paths) {
    for (const [input, { bytesInOutput }] of Object.entries(outputs[path]!.inputs)) {
      bytes.set(input, (bytes.get(input) ?? 0) + bytesInOutput)
    }
  }
  return [...bytes]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([path, inputBytes]) => ({ path, bytes: inputBytes }))
}
