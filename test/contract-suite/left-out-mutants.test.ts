import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { describe, expect, test } from 'vitest'
import { LEFT_OUT_KINDS, linesBeginning } from '../../contract-tests/mutation/left-out-kinds.mjs'
import {
  declaredName,
  LEFT_OUT,
  statementSource,
  strykerPlugins,
} from '../../contract-tests/mutation/left-out-mutants.mjs'
import type * as MemberIndexModule from '../../src/domain/member-index/member-index.js'
import { firstDifferenceUnderTheApi } from '../support/member-index-reference.js'
import { THEIR_SUPPORT, TESTS_BESIDE_THE_SUITE } from '../../contract-tests/mutation/tests-beside-the-suite.mjs'

// `npm run mutation` leaves out what contract-tests/mutation/left-out-mutants.mjs names. Each name must still
// name something of its file, seen the way Stryker sees it (Babel, the same presets), or a rename would
// quietly put code back under test, or a new function under an old name out of it.

// Babel as Stryker's instrumenter loads it: the kit does not depend on it directly.
const requireFromStryker = createRequire(createRequire(import.meta.url).resolve('@stryker-mutator/instrumenter'))
/** What this test uses of @babel/core (untyped here). */
interface NodePath {
  node: { type: string; loc?: { start: { line: number } } | null }
}
interface Babel {
  parseSync(code: string, options: object): object | null
  traverse(ast: object, visitor: { enter(path: NodePath): void }): void
  File: new (options: object, input: object) => { ast: object }
}
const babel = requireFromStryker('@babel/core') as Babel

interface Seen {
  names: Set<string>
  ignored: Map<string, string>
  /** Each statement the plugin can name, with the reason it is left out, if it is. */
  statements: Array<{ source: string; reason: string | undefined }>
}

function walk(file: string): Seen {
  const code = readFileSync(file, 'utf8')
  const ast = babel.parseSync(code, {
    filename: file,
    configFile: false,
    babelrc: false,
    presets: [[requireFromStryker.resolve('@babel/preset-typescript'), { ignoreExtensions: true }]],
  })
  if (!ast) throw new Error(`${file} did not parse`)
  const ignorer = strykerPlugins[0].value
  const seen: Seen = { names: new Set(), ignored: new Map(), statements: [] }
  // Wrapped as Stryker's instrumenter wraps it, so that a path knows its file.
  const wrapped = new babel.File({ filename: file }, { code, ast, inputMap: null })
  babel.traverse(wrapped.ast, {
    enter(path) {
      const name = declaredName(path)
      if (name !== undefined) seen.names.add(name)
      const reason = ignorer.shouldIgnore(path)
      const source = statementSource(path)
      if (source !== undefined) seen.statements.push({ source, reason })
      if (reason !== undefined) seen.ignored.set(name ?? `${path.node.type}@${path.node.loc?.start.line}`, reason)
    },
  })
  return seen
}

const listed = LEFT_OUT.flatMap(({ reason, names = {} }) =>
  Object.entries(names).map(([file, fileNames]) => ({ reason, file, fileNames })),
)
const listedStatements = LEFT_OUT.flatMap(({ reason, statements = {} }) =>
  Object.entries(statements).map(([file, starts]) => ({ reason, file, starts })),
)

describe('what the mutation run leaves out', () => {
  test.each(listed)('$file: every name it leaves out is there, and is left out', ({ reason, file, fileNames }) => {
    const seen = walk(file)
    for (const name of fileNames) {
      expect(seen.names, `${name} in ${file}`).toContain(name)
      expect(seen.ignored.get(name), `${name} in ${file}`).toBe(reason)
    }
  })

  test.each(listedStatements)(
    '$file: every statement it leaves out is there once, and is left out',
    ({ reason, file, starts }) => {
      const seen = walk(file)
      for (const start of starts) {
        const found = seen.statements.filter(({ source }) => source.startsWith(start))
        expect(found, `${start} in ${file}`).toHaveLength(1)
        expect(found[0]?.reason, `${start} in ${file}`).toBe(reason)
      }
    },
  )

  test('a statement beside a left-out one is tested', () => {
    const statements = walk('src/domain/permissions.ts').statements
    const notOwner = statements.find(({ source }) => source.startsWith("if (grant === 'not-owner')"))
    expect(notOwner).toBeDefined()
    expect(notOwner?.reason).toBeUndefined()
  })

  test("an AppError's message is left out, its code and details are not", () => {
    const seen = walk('src/engine/handle-request.ts')
    const messages = [...seen.ignored].filter(([, reason]) => reason.startsWith("An AppError's message"))
    expect(messages.length).toBeGreaterThan(0)
    const store = walk('src/domain/user-store.ts')
    // updateUser's INVALID_TRANSITION: its message is left out; the function itself, with its code, is not.
    expect(store.ignored.has('updateUser')).toBe(false)
    expect(
      [...store.ignored.values()].filter((reason) => reason.startsWith("An AppError's message")).length,
    ).toBeGreaterThan(2)
  })

  test('only what is named is left out: the variable beside a left-out one is tested', () => {
    const seen = walk('src/http/request-target.ts')
    expect(seen.ignored.has('splitTarget/target')).toBe(true)
    expect(seen.names).toContain('splitTarget/path')
    expect(seen.ignored.has('splitTarget/path')).toBe(false)
    // `describe` is left out of validation-issues.ts; a `describe` elsewhere would not be.
    expect(walk('src/engine/validation-issues.ts').ignored.has('describe')).toBe(true)
  })
})

/** A place in a file as Stryker's instrumenter reports it: lines and columns count from 0. */
interface Position {
  line: number
  column: number
}
/** A mutant as Stryker's instrumenter reports it. */
interface Mutant {
  mutatorName: string
  replacement: string
  location: { start: Position; end: Position }
  status?: string
  statusReason?: string
}
interface Instrumenter {
  instrument(
    files: Array<{ name: string; mutate: true; content: string }>,
    options: object,
  ): Promise<{ mutants: Mutant[] }>
}
const { Instrumenter } = (await import(
  pathToFileURL(createRequire(import.meta.url).resolve('@stryker-mutator/instrumenter')).href
)) as { Instrumenter: new (logger: object) => Instrumenter }

/** The file's mutants as `npm run mutation` makes them: Stryker's own instrumenter, with the plugin. */
async function instrument(file: string, content = readFileSync(file, 'utf8')): Promise<Mutant[]> {
  const quiet = () => undefined
  const logger = { debug: quiet, info: quiet, warn: quiet, error: quiet, isDebugEnabled: () => false }
  const options = { plugins: null, excludedMutations: [], ignorers: [strykerPlugins[0].value], noHeader: true }
  const { mutants } = await new Instrumenter(logger).instrument([{ name: file, mutate: true, content }], options)
  return mutants
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(folder, entry.name)) : [join(folder, entry.name)],
  )
}

describe('variants left out by kind, on one line', () => {
  test('the code carries no mark for the mutation tool: what is left out, and why, is in its setup', () => {
    const marked = filesUnder('src').filter((file) => /Stryker (?:disable|restore)/.test(readFileSync(file, 'utf8')))
    expect(marked).toEqual([])
  })

  test.each(LEFT_OUT_KINDS)(
    '$file: "$line" leaves out its $mutators variants, and only those',
    async ({ file, line, mutators, reason }) => {
      const [lineNumber] = linesBeginning(readFileSync(file, 'utf8'), line)
      expect(lineNumber, `one line of ${file} begins ${line}`).toBeDefined()
      const onLine = (await instrument(file)).filter((mutant) => mutant.location.start.line + 1 === lineNumber)
      const leftOut = (mutant: Mutant) => mutators.includes('all') || mutators.includes(mutant.mutatorName)
      for (const mutant of onLine) {
        const seen = `${mutant.mutatorName} ${mutant.replacement}`
        if (leftOut(mutant)) expect({ seen, reason: mutant.statusReason }).toEqual({ seen, reason })
        else expect({ seen, reason: mutant.statusReason }).not.toEqual({ seen, reason })
      }
      // Each kind named still makes a variant there: a listing that leaves out nothing is stale.
      for (const mutator of mutators.filter((name) => name !== 'all'))
        expect(onLine.map(({ mutatorName }) => mutatorName)).toContain(mutator)
      expect(onLine.filter(leftOut).length).toBeGreaterThan(0)
    },
  )

  test.each([...new Set(LEFT_OUT_KINDS.map(({ file }) => file))])(
    '%s: nothing but the listed lines is left out for their reasons',
    async (file) => {
      const code = readFileSync(file, 'utf8')
      const listed = LEFT_OUT_KINDS.filter((entry) => entry.file === file)
      for (const mutant of await instrument(file)) {
        const line = mutant.location.start.line + 1
        const entries = listed.filter(({ reason }) => reason === mutant.statusReason)
        if (entries.length === 0) continue
        expect(
          entries.flatMap((entry) => linesBeginning(code, entry.line)),
          `${mutant.mutatorName} at ${line}`,
        ).toContain(line)
      }
    },
  )

  test('a line named twice in its file stops the run: which one is meant is not clear', async () => {
    const { file, line } = LEFT_OUT_KINDS[0]!
    const doubled = readFileSync(file, 'utf8').replace(line, `${line}\n  ${line}`)
    await expect(instrument(file, doubled)).rejects.toThrow(/has 2 lines beginning/)
  })

  test('a line named that is no longer there stops the run, rather than putting its variants back under test', async () => {
    const { file, line } = LEFT_OUT_KINDS[0]!
    const changed = readFileSync(file, 'utf8').replace(line, line.replace('segment', 'part'))
    await expect(instrument(file, changed)).rejects.toThrow(/has 0 lines beginning/)
  })
})

/** The file's code with one variant in place of the code it mutates. */
function withVariant(code: string, { location: { start, end }, replacement }: Mutant): string {
  const lineStarts = [0, ...[...code.matchAll(/\r\n?|[\n\u2028\u2029]/g)].map((match) => match.index + match[0].length)]
  const offset = ({ line, column }: Position): number => lineStarts[line]! + column
  return code.slice(0, offset(start)) + replacement + code.slice(offset(end))
}

const MEMBER_INDEX = 'src/domain/member-index/member-index.ts'

/** The member index's module, built (esbuild, one bundle) with `file`'s code replaced by `code`. */
async function memberIndexWith(file: string, code: string): Promise<typeof MemberIndexModule> {
  const { outputFiles } = await build({
    entryPoints: [MEMBER_INDEX],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'one-variant',
        setup(plugins) {
          plugins.onLoad({ filter: /\.ts$/ }, (args) =>
            args.path === resolve(file) ? { contents: code, loader: 'ts' } : undefined,
          )
        },
      },
    ],
  })
  const bundle = outputFiles[0]!.text
  return (await import(
    `data:text/javascript;base64,${Buffer.from(bundle).toString('base64')}`
  )) as typeof MemberIndexModule
}

describe("the member index's left-out variants answer as it does, under the users API's own changes", () => {
  const listedInTheIndex = LEFT_OUT_KINDS.filter(({ file }) => file.startsWith('src/domain/member-index/'))

  test('the comparison tells a wrong index: a variant that forgets to drop remembered lists on a deletion fails it', async () => {
    const code = readFileSync(MEMBER_INDEX, 'utf8')
    const forgetful = code.replace('return before !== undefined || after !== undefined', 'return after !== undefined')
    expect(forgetful).not.toBe(code)
    const { MemberIndex } = await memberIndexWith(MEMBER_INDEX, forgetful)
    expect(firstDifferenceUnderTheApi(() => new MemberIndex())).toMatch(/^read \d+ /)
  })

  test.each(listedInTheIndex)(
    '$file: "$line", each $mutators variant',
    async ({ file, line, mutators }) => {
      const code = readFileSync(file, 'utf8')
      const [lineNumber] = linesBeginning(code, line)
      const variants = (await instrument(file)).filter(
        (mutant) =>
          mutant.location.start.line + 1 === lineNumber &&
          (mutators.includes('all') || mutators.includes(mutant.mutatorName)),
      )
      expect(variants.length).toBeGreaterThan(0)
      const differences: string[] = []
      for (const variant of variants) {
        const { MemberIndex } = await memberIndexWith(file, withVariant(code, variant))
        let difference: string | undefined
        try {
          difference = firstDifferenceUnderTheApi(() => new MemberIndex())
        } catch (error) {
          difference = `threw ${String(error)}`
        }
        if (difference !== undefined) differences.push(`${variant.mutatorName} → ${variant.replacement}: ${difference}`)
      }
      expect(differences).toEqual([])
    },
    120_000,
  )
})

describe("the mutation run's sandbox", () => {
  test('holds the tests of test/ it runs beside the suite, and every file of test/ they import', () => {
    const copied = new Set([...TESTS_BESIDE_THE_SUITE, ...THEIR_SUPPORT])
    const read = new Set<string>()
    const toRead = [...TESTS_BESIDE_THE_SUITE]
    for (let file = toRead.pop(); file !== undefined; file = toRead.pop()) {
      if (read.has(file)) continue
      read.add(file)
      for (const [, specifier = ''] of readFileSync(file, 'utf8').matchAll(/(?:from|import\() *'(\.\.?\/[^']+)'/g)) {
        const imported = relative('.', resolve(dirname(file), specifier)).replace(/\.js$/, '.ts')
        if (!imported.startsWith('test/')) continue
        expect(copied, `${file} imports ${imported}`).toContain(imported)
        toRead.push(imported)
      }
    }
    expect([...read].sort()).toEqual([...copied].sort())
  })
})
