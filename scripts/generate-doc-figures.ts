import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import * as prettier from 'prettier'
import { collectTaggedChecks } from '../contract-tests/traceability/collect-tagged-checks.js'
import { FUZZ_DISPOSABLE_USERS, gateDisposableUsers } from '../src/cli/gate-prerequisites.js'
import { DISPOSABLE_USERS_NEEDED } from '../src/target/disposable-slots.js'
import { DEFAULT_DISPOSABLE_USERS } from '../src/mock-instance/create-target.js'
import { MUTANTS } from '../test/support/broken-servers/mutants.js'
import { readFences } from '../test/support/doc-blocks.js'
import { bundleForBrowser, createDocExampleProject } from './doc-example-project.js'

/**
 * The counts and sizes the docs state, from the code that has them (`npm run docs:figures`): the number
 * of checks (in all and per file, as vitest collects the suite), of broken servers, of disposable users,
 * and the sizes of the MSW example's bundles. Each figure has its places, patterns whose match is the
 * number; test/docs/doc-figures-are-current.test.ts fails when a place says another number, or no longer
 * matches at all (the sentence was rephrased: move the pattern with it).
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url))

export interface Figures {
  checks: number
  checksPerFile: Map<string, number>
  brokenServers: number
  disposable: { verify: number; fuzz: number; gate: number; mockTarget: number }
  /** Gzipped KB (one decimal) of docs/mock.md's code-split MSW example. */
  mswBundle: { single: number; page: number; mock: number; faker: number }
}

interface FigurePlace {
  /** The page, relative to the root. */
  page: string
  /** Global; its whole match is the number (context in lookbehinds and lookaheads). */
  pattern: RegExp
  value(figures: Figures, match: RegExpExecArray): number
  /** How the number is written; default `String`. */
  format?: (value: number) => string
}

/** A size in KB as the docs write it: one decimal, always (`280.0`, not `280`). */
const oneDecimal = (value: number): string => value.toFixed(1)

const TOTAL_CHECKS = /(?<=\b)\d+(?= checks passed, 0 failed, 0 skipped)/g
const FILE_CHECKS = /(?<=\b([\w-]+\.contract\.test\.ts) \()\d+(?= checks)/g

const PLACES: FigurePlace[] = [
  ...['README.md', 'docs/contract-suite.md', 'docs/gate.md'].map((page) => ({
    page,
    pattern: TOTAL_CHECKS,
    value: (figures: Figures) => figures.checks,
  })),
  ...['README.md', 'docs/contract-suite.md'].map((page) => ({
    page,
    pattern: FILE_CHECKS,
    value: (figures: Figures, match: RegExpExecArray) => figures.checksPerFile.get(match[1] ?? '') ?? Number.NaN,
  })),
  // docs/contract-suite.md's example of a failed run (3 checks failed) and of --bail (1 failed, 2 passed).
  { page: 'docs/contract-suite.md', pattern: /\d+(?= checks passed, 3 failed)/g, value: (f) => f.checks - 3 },
  { page: 'docs/contract-suite.md', pattern: /\d+(?= not run \(\d+ checks\))/g, value: (f) => f.checks - 3 },
  { page: 'docs/contract-suite.md', pattern: /(?<=not run \()\d+(?= checks\))/g, value: (f) => f.checks },
  { page: 'docs/contract-suite.md', pattern: /(?<=holds )\d+(?= implementations)/g, value: (f) => f.brokenServers },
  { page: 'docs/contract-suite.md', pattern: /(?<=Kill rate: )\d+(?=\/)/g, value: (f) => f.brokenServers },
  { page: 'docs/contract-suite.md', pattern: /(?<=Kill rate: \d+\/)\d+/g, value: (f) => f.brokenServers },
  { page: 'README.md', pattern: /(?<=`disposable` at least )\d+/g, value: (f) => f.disposable.verify },
  { page: 'README.md', pattern: /(?<=`gate` needs )\d+(?= more)/g, value: (f) => f.disposable.fuzz },
  { page: 'docs/gate.md', pattern: /(?<=`fuzz` the )\d+(?= after them)/g, value: (f) => f.disposable.fuzz },
  { page: 'docs/fuzzing.md', pattern: /(?<=give )\d+(?= or more)/g, value: (f) => f.disposable.fuzz },
  {
    page: 'docs/mock.md',
    pattern: /(?<=`target` gets, )\d+(?=\s+by\s+default)/g,
    value: (f) => f.disposable.mockTarget,
  },
  { page: 'docs/mock.md', pattern: /(?<=`\?disposable=N`, default )\d+/g, value: (f) => f.disposable.mockTarget },
  {
    page: 'examples/github-actions-gate.yml',
    pattern: /(?<=disposable: at least )\d+/g,
    value: (f) => f.disposable.gate,
  },
  { page: 'examples/github-actions-gate.yml', pattern: /(?<=--count )\d+/g, value: (f) => f.disposable.gate },
  { page: 'docs/gate.md', pattern: /(?<=from secrets, )\d+(?= fresh disposable)/g, value: (f) => f.disposable.gate },
  { page: 'examples/github-actions-gate.yml', pattern: /(?<=of the first )\d+/g, value: (f) => f.disposable.verify },
  {
    page: 'docs/mock.md',
    pattern: /(?<=\| as one file[^|\n]*\|\s*)\d+(?:\.\d+)?(?= KB)/g,
    value: (f) => f.mswBundle.single,
    format: oneDecimal,
  },
  {
    page: 'docs/mock.md',
    pattern: /(?<=\| split at `import\(\)`: the page itself\s*\|\s*)\d+(?:\.\d+)?(?= KB)/g,
    value: (f) => f.mswBundle.page,
    format: oneDecimal,
  },
  {
    page: 'docs/mock.md',
    pattern: /(?<=\| split: msw and the mock[^|\n]*\|\s*)\d+(?:\.\d+)?(?= KB)/g,
    value: (f) => f.mswBundle.mock,
    format: oneDecimal,
  },
  {
    page: 'docs/mock.md',
    pattern: /(?<=\| split: faker[^|\n]*\|\s*)\d+(?:\.\d+)?(?= KB)/g,
    value: (f) => f.mswBundle.faker,
    format: oneDecimal,
  },
]

/** The figures, from the code: vitest collects the suite (no request is sent), esbuild bundles the example. */
export async function measureFigures(): Promise<Figures> {
  const checks = await collectTaggedChecks()
  const checksPerFile = new Map<string, number>()
  for (const check of checks) {
    const file = check.file.split('/').pop() ?? check.file
    checksPerFile.set(file, (checksPerFile.get(file) ?? 0) + 1)
  }
  return {
    checks: checks.length,
    checksPerFile,
    brokenServers: MUTANTS.length,
    disposable: {
      verify: DISPOSABLE_USERS_NEEDED,
      fuzz: FUZZ_DISPOSABLE_USERS,
      gate: gateDisposableUsers(false),
      mockTarget: DEFAULT_DISPOSABLE_USERS,
    },
    mswBundle: await measureMswBundle(),
  }
}

/** docs/mock.md's code-split example (the ```ts block that starts with `// main.ts`), bundled both ways. */
async function measureMswBundle(): Promise<Figures['mswBundle']> {
  const example = readFences(await readFile(join(ROOT, 'docs/mock.md'), 'utf8')).ts.find((block) =>
    block.code.startsWith('// main.ts'),
  )
  if (!example) throw new Error('docs/mock.md has no ```ts block starting with // main.ts (the code-split example)')
  const project = await mkdtemp(join(tmpdir(), 'users-api-kit-doc-figures-'))
  try {
    await createDocExampleProject(project)
    const entry = join(project, 'main.ts')
    await writeFile(entry, example.code)
    const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10
    const sum = (files: Array<{ gzipped: number }>) => files.reduce((total, file) => total + file.gzipped, 0)
    const single = await bundleForBrowser(entry, false)
    const split = await bundleForBrowser(entry, true)
    const holdsFaker = (file: { inputs: string[] }) => file.inputs.some((input) => input.includes('@faker-js'))
    return {
      single: kb(sum(single)),
      page: kb(sum(split.filter((file) => file.entry))),
      mock: kb(sum(split.filter((file) => !file.entry && !holdsFaker(file)))),
      faker: kb(sum(split.filter((file) => !file.entry && holdsFaker(file)))),
    }
  } finally {
    await rm(project, { recursive: true, force: true })
  }
}

/** Each page with its figures as the code has them, and the places whose pattern no longer matches. */
export async function renderDocFigures(figures: Figures): Promise<{ pages: Map<string, string>; lost: string[] }> {
  const pages = new Map<string, string>()
  const lost: string[] = []
  for (const place of PLACES) {
    const text = pages.get(place.page) ?? (await readFile(join(ROOT, place.page), 'utf8'))
    let found = false
    const pattern = new RegExp(place.pattern.source, place.pattern.flags)
    const rewritten = text.replace(pattern, (...args: unknown[]) => {
      found = true
      const groups = args.slice(0, -2) as string[]
      const match = Object.assign([...groups], { index: 0, input: text }) as unknown as RegExpExecArray
      return (place.format ?? String)(place.value(figures, match))
    })
    if (!found) lost.push(`${place.page}: nothing matches ${place.pattern}`)
    pages.set(place.page, rewritten)
  }
  // A figure of another width must not leave a Markdown table misaligned for Prettier's check.
  for (const [page, text] of pages) {
    const options = await prettier.resolveConfig(join(ROOT, page))
    pages.set(page, await prettier.format(text, { ...options, filepath: join(ROOT, page) }))
  }
  return { pages, lost }
}

async function main(): Promise<void> {
  const { pages, lost } = await renderDocFigures(await measureFigures())
  for (const [page, text] of pages) {
    if (text !== (await readFile(join(ROOT, page), 'utf8'))) {
      await writeFile(join(ROOT, page), text)
      console.log(`Updated ${page}.`)
    }
  }
  for (const place of lost) console.error(`  ${place}`)
  if (lost.length > 0) process.exitCode = 1
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
