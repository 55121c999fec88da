import { readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { bundleForBrowser, createDocExampleProject } from '../../scripts/doc-example-project.js'
import { BROWSER_SKIP_REASON, launchChromium, SKIP_BROWSER } from '../support/chromium.js'
import { buildCliOnce, ROOT } from '../support/cli-mock-process.js'
import { DOC_PAGES, readFences } from '../support/doc-blocks.js'

// Every ```ts block of README.md and docs/*.md is type-checked and run as written, in a project where
// `users-api-kit` is this clone (scripts/doc-example-project.ts). How it runs follows from what it
// imports: a block that imports vitest is a test file, run by vitest, and must pass; one that starts
// msw's worker (msw/browser) is bundled by esbuild and opened in Chromium; any other runs in Node. A
// `console.log(…) // expected` line says what it prints: the block must print exactly those lines, in
// order. A block that cannot run says why in `<!-- not run by the docs test: REASON -->`.

type Kind = 'vitest' | 'browser' | 'node'

interface Example {
  page: string
  line: number
  kind: Kind
  file: string
  code: string
  /** What its `console.log(…) // expected` lines say it prints, in order. */
  prints: string[]
}

const EXAMPLES: Example[] = DOC_PAGES.flatMap((page) =>
  readFences(readFileSync(join(ROOT, page), 'utf8'))
    .ts.filter((block) => block.skipReason === undefined)
    .map((block) => {
      const kind: Kind = /from 'vitest'/.test(block.code)
        ? 'vitest'
        : /['"]msw\/browser['"]/.test(block.code)
          ? 'browser'
          : 'node'
      const name = `${page.replace(/\W/g, '-')}-line-${block.line}`
      const prints = [...block.code.matchAll(/console\.log\(.*\) \/\/ (.+)$/gm)].map((match) => match[1] ?? '')
      return {
        page,
        line: block.line,
        kind,
        file: kind === 'vitest' ? `${name}.test.ts` : `${name}.ts`,
        code: block.code,
        prints,
      }
    }),
)

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    // Browser examples use the DOM; the others Node's globals: a user's project has one or the other.
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    types: ['node'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    isolatedModules: true,
  },
  include: ['*.ts'],
}

let project: string
/** tsc's errors, by file. */
const typeErrors = new Map<string, string[]>()
/** vitest's verdict on each test file, from its JSON report. */
let vitestResults: Map<string, { status: string; tests: number; message: string }>

beforeAll(async () => {
  await buildCliOnce()
  project = await mkdtemp(join(tmpdir(), 'documented-typescript-'))
  await createDocExampleProject(project)
  await writeFile(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG))
  for (const example of EXAMPLES) await writeFile(join(project, example.file), example.code)
  const tsc = await execa('node', [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], {
    cwd: project,
    reject: false,
  })
  for (const line of tsc.stdout.split('\n').filter(Boolean)) {
    const file = /^([^(]+)\(/.exec(line)?.[1] ?? '(tsc)'
    typeErrors.set(file, [...(typeErrors.get(file) ?? []), line])
  }
  vitestResults = await runVitestExamples()
}, 120_000)

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true })
})

test('the docs have a TypeScript example of each kind: a test file, a browser page, a Node script', () => {
  expect(new Set(EXAMPLES.map((example) => example.kind))).toEqual(new Set(['vitest', 'browser', 'node']))
})

describe.each(EXAMPLES.filter((example) => example.kind !== 'browser'))('$page line $line ($kind)', (example) => {
  test('type-checks', () => {
    expect(typeErrors.get(example.file) ?? []).toEqual([])
  })

  test(example.kind === 'vitest' ? 'passes under vitest' : 'runs in Node and prints what it says', async () => {
    if (example.kind === 'vitest') {
      const result = vitestResults.get(example.file)
      expect(result?.message ?? 'not run', result?.message).toBe('')
      expect(result?.status).toBe('passed')
      expect(result?.tests).toBeGreaterThan(0)
      return
    }
    const run = await execa('node', ['--import', 'tsx', example.file], { cwd: project, reject: false, timeout: 30_000 })
    expect(run.exitCode, run.stderr).toBe(0)
    expect(run.stdout.split('\n').filter(Boolean)).toEqual(example.prints)
  })
})

describe.skipIf(SKIP_BROWSER)(`browser examples, in Chromium${BROWSER_SKIP_REASON}`, { timeout: 60_000 }, () => {
  let browser: Browser

  beforeAll(async () => {
    browser = await launchChromium()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
  })

  describe.each(EXAMPLES.filter((example) => example.kind === 'browser'))('$page line $line', (example) => {
    test('type-checks', () => {
      expect(typeErrors.get(example.file) ?? []).toEqual([])
    })

    test("runs in a page, msw's worker answering, and prints what it says", async () => {
      const files = await bundleForBrowser(join(project, example.file), true)
      const entry = files.find((file) => file.entry)?.name ?? ''
      const server = await serve(new Map(files.map((file) => [`/${file.name}`, file.contents])), entry)
      const page = await browser.newPage()
      const printed: string[] = []
      const errors: string[] = []
      page.on('console', (message) => {
        if (message.type() === 'log') printed.push(message.text())
      })
      page.on('pageerror', (error) => errors.push(String(error)))
      try {
        // localhost, not 127.0.0.1: the code-split example starts the mock on localhost only.
        await page.goto(`http://localhost:${(server.address() as AddressInfo).port}/`)
        // msw logs to the console too (its banner, each request): the example's own lines are those it names.
        const own = () => printed.filter((line) => example.prints.includes(line))
        await expect
          .poll(() => own().length + errors.length, { timeout: 20_000 })
          .toBeGreaterThanOrEqual(example.prints.length)
        expect(errors).toEqual([])
        expect(own()).toEqual(example.prints)
      } finally {
        await page.close()
        server.closeAllConnections()
        await new Promise((resolve) => server.close(resolve))
      }
    })
  })
})

/** The vitest examples in one vitest run of the project, each file's verdict read from its JSON report. */
async function runVitestExamples(): Promise<Map<string, { status: string; tests: number; message: string }>> {
  const files = EXAMPLES.filter((example) => example.kind === 'vitest').map((example) => example.file)
  const report = join(project, 'vitest-report.json')
  const run = await execa(
    'node',
    [
      join(ROOT, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--root',
      project,
      '--reporter=json',
      `--outputFile=${report}`,
      ...files,
    ],
    { cwd: project, reject: false, env: { NO_COLOR: '1' } },
  )
  const parsed = JSON.parse(await readFile(report, 'utf8').catch(() => '{"testResults":[]}')) as {
    testResults: Array<{
      name: string
      status: string
      message: string
      assertionResults: Array<{ failureMessages: string[] }>
    }>
  }
  const results = new Map<string, { status: string; tests: number; message: string }>()
  for (const result of parsed.testResults) {
    const failures = result.assertionResults.flatMap((assertion) => assertion.failureMessages)
    results.set(result.name.split('/').pop() ?? result.name, {
      status: result.status,
      tests: result.assertionResults.length,
      message: [result.message, ...failures].filter(Boolean).join('\n'),
    })
  }
  if (results.size === 0) throw new Error(`vitest ran none of the examples:\n${run.stdout}\n${run.stderr}`)
  return results
}

/** A static server for the page: its HTML, the bundle's files, and msw's worker script. */
async function serve(files: Map<string, Uint8Array>, entry: string): Promise<Server> {
  const worker = await readFile(join(ROOT, 'node_modules/msw/lib/mockServiceWorker.js'))
  const html = `<!doctype html><html><head><meta charset="utf-8"></head><body><script type="module" src="/${entry}"></script></body></html>`
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://page').pathname
    const script = path === '/mockServiceWorker.js' ? worker : files.get(path)
    if (path === '/') response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html)
    else if (script) response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script)
    else response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return server
}
