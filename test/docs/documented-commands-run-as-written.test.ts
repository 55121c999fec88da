import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { execa } from 'execa'
import { getFileInfo } from 'prettier'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'
import { buildCliOnce, MAIN, ROOT } from '../support/cli-mock-process.js'
import { DOC_PAGES, readFences, type ShBlock, type ShCommand } from '../support/doc-blocks.js'

// Every command of the ```sh blocks of README.md and docs/*.md runs as written: in a temporary folder,
// against a mock this file starts, with two rewrites (the docs' mock URL, http://127.0.0.1:4010 or a
// colleague's http://HOST:4010, becomes this mock's; `npx users-api-kit` the built CLI) and one check
// added (curl fails on an HTTP error, so that a documented call answering 4xx is caught). Each command
// exits 0, or the code its comment names (`# exits 2`). `users-api-kit mock` runs until Ctrl-C: it is
// started on a free port and stopped with SIGTERM after its banner. A block that must not run
// (installs, `npm start`) says why in `<!-- not run by the docs test: REASON -->`. A page's blocks run
// in its order, in a folder of its own, as a reader following it in a clone would: what they write must
// be ignored by git and Prettier, or `npm test` in the clone fails after them.

const DOCS_MOCK_URLS = ['http://127.0.0.1:4010', 'http://HOST:4010']
const BANNER_END = 'Ctrl-C stops it.'

const pages = DOC_PAGES.map((page) => ({ page, fences: readFences(readFileSync(join(ROOT, page), 'utf8')) }))
const readme = pages.find(({ page }) => page === 'README.md')?.fences

let mock: RunningMock
/** Holds the exit codes, and a folder for each page, where its blocks run. */
let scratch: string

beforeAll(async () => {
  await buildCliOnce()
  mock = await startMock()
  scratch = await mkdtemp(join(tmpdir(), 'documented-commands-'))
}, 120_000)

afterAll(async () => {
  await mock?.close()
  if (scratch) await rm(scratch, { recursive: true, force: true })
})

/** The folder a page's blocks run in: the clone's root, as its reader sees it, made on first use. */
async function readerFolder(page: string): Promise<string> {
  const folder = join(scratch, 'pages', page.replace(/\W/g, '-'))
  await mkdir(folder, { recursive: true })
  return folder
}

describe.each(pages)('the sh blocks of $page', ({ fences }) => {
  test('every block the test does not run says why', () => {
    const unexplained = [...fences.sh, ...fences.ts]
      .filter((block) => block.skipReason === '')
      .map((block) => `line ${block.line}`)
    expect(unexplained).toEqual([])
  })

  test('every "not run" comment sits right above the sh or ts block it is about', () => {
    expect(fences.strayComments.map((line) => `line ${line}`)).toEqual([])
  })

  test('code is written in sh and ts blocks, which the test reads (not bash, shell, js or unlabelled ones)', () => {
    const elsewhere = fences.infoStrings.filter(({ info }) =>
      ['', 'bash', 'shell', 'zsh', 'js', 'javascript', 'typescript', 'tsx'].includes(info),
    )
    expect(elsewhere.map(({ info, line }) => `line ${line}: \`\`\`${info}`)).toEqual([])
  })
})

test("each of the README's quick starts has a block that runs", () => {
  const blocks = readme?.sh ?? []
  const quickStarts = new Set(blocks.map((block) => block.heading).filter((heading) => /^Quick start/.test(heading)))
  const withoutOne = [...quickStarts].filter(
    (heading) => !blocks.some((block) => block.heading === heading && block.skipReason === undefined),
  )
  expect(quickStarts.size).toBeGreaterThanOrEqual(3)
  expect(withoutOne).toEqual([])
})

/**
 * A bound on a hung block, not on the machine's speed: the longest, a fuzz run of Schemathesis, took over
 * 85 s on 2 cores running two npm tests at once.
 */
const BLOCK_LIMIT_MS = 240_000

const runnable = (fences: (typeof pages)[number]['fences']) =>
  fences.sh.filter((block) => block.skipReason === undefined)

describe.each(pages.filter(({ fences }) => runnable(fences).length > 0))(
  'every command of $page runs as written',
  ({ page, fences }) => {
    // A reader of this page starts from the mock's seed: the users earlier pages' runs added (each verify
    // and gate asks for fresh disposable users, fuzz renames them) are gone.
    beforeAll(() => mock.reset())
    for (const block of runnable(fences)) {
      test(
        `${block.heading} (${page} line ${block.line}): ${block.commands[0]?.code ?? ''}`,
        { timeout: BLOCK_LIMIT_MS + 30_000 },
        () => runBlock(page, block),
      )
    }
  },
)

test('what the blocks wrote is ignored by git and Prettier: a reader who followed them can still run npm test', async () => {
  const pagesFolder = join(scratch, 'pages')
  const written = (await readdir(pagesFolder, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => relative(pagesFolder, join(entry.parentPath, entry.name)).replace(/^[^/]+\//, ''))
  const notIgnored: string[] = []
  for (const file of written) {
    const git = await execa('git', ['check-ignore', '--quiet', '--no-index', file], { cwd: ROOT, reject: false })
    const prettier = await getFileInfo(join(ROOT, file), {
      ignorePath: [join(ROOT, '.gitignore'), join(ROOT, '.prettierignore')],
    })
    if (git.exitCode !== 0 || !prettier.ignored) notIgnored.push(file)
  }
  expect(written.length).toBeGreaterThan(0)
  expect(notIgnored).toEqual([])
})

/** Runs a block's commands in one shell (so that `TOKEN=…` reaches the next line), each exit code noted. */
async function runBlock(page: string, block: ShBlock): Promise<void> {
  const directory = await readerFolder(page)
  const exitCodes = join(scratch, 'exit-codes')
  const script = [`exec 3>${quote(exitCodes)}`, ...block.commands.map((command) => asRun(command))].join('\n')
  const result = await execa('bash', ['-c', script], {
    cwd: directory,
    all: true,
    reject: false,
    timeout: BLOCK_LIMIT_MS,
    env: { USERS_API_KIT_CONTROL_TOKEN: undefined, NO_COLOR: '1', FORCE_COLOR: '0' },
  })
  const codes = (await readFile(exitCodes, 'utf8')).split('\n').filter(Boolean).map(Number)
  const outcomes = block.commands.map((command, index) => ({
    command: `${page} line ${command.line}: ${command.text}`,
    exitCode: codes[index] ?? `did not run (the shell ended: ${result.exitCode ?? result.signal})`,
  }))
  const expected = block.commands.map((command) => ({
    command: `${page} line ${command.line}: ${command.text}`,
    exitCode: command.expectedExit,
  }))
  expect(outcomes, `Output of the block:\n${result.all}`).toEqual(expected)
}

/** The command as this test runs it, followed by noting its exit code on file descriptor 3. */
function asRun(command: ShCommand): string {
  const code = DOCS_MOCK_URLS.reduce((text, url) => text.replaceAll(url, mock.url), command.code)
    .replace(/(^|[\s;&|(])npx users-api-kit(?=\s|$)/g, `$1node ${quote(MAIN)}`)
    .replace(/^curl /, 'curl --silent --show-error --fail-with-body ')
  if (!/^node \S+ mock(\s|$)/.test(code)) return `${code}\necho "$?" >&3`
  // The mock serves until Ctrl-C: on a free port, stopped once its banner is out. SIGTERM stops it with 0.
  return [
    `__log="$(mktemp)"`,
    `${code} --port 0 >"$__log" 2>&1 &`,
    `__pid=$!`,
    `for __i in $(seq 1 100); do grep -q ${quote(BANNER_END)} "$__log" && break; kill -0 "$__pid" 2>/dev/null || break; sleep 0.1; done`,
    `if grep -q ${quote(BANNER_END)} "$__log"; then kill -TERM "$__pid"; else echo "users-api-kit mock: no banner within 10 s" >&2; kill -KILL "$__pid" 2>/dev/null; fi`,
    `wait "$__pid"; __code=$?; cat "$__log"; rm -f "$__log"`,
    `echo "$__code" >&3`,
  ].join('\n')
}

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}

describe('links of README.md and docs/*.md', () => {
  test('every relative link reaches a file or folder of the kit, and every #anchor a heading', () => {
    const broken: string[] = []
    for (const page of DOC_PAGES.map((name) => join(ROOT, name))) {
      for (const link of relativeLinks(readFileSync(page, 'utf8'))) {
        const [path = '', anchor] = link.split('#')
        const target = path === '' ? page : resolve(dirname(page), path)
        const where = `${relative(ROOT, page)}: (${link})`
        if (!existsSync(target)) broken.push(`${where} no such file`)
        else if (anchor && target.endsWith('.md') && !headingSlugs(readFileSync(target, 'utf8')).has(anchor)) {
          broken.push(`${where} no such heading`)
        }
      }
    }
    expect(broken).toEqual([])
  })
})

/** The targets of a page's Markdown links that are not URLs, outside code. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, '').replace(/`[^`\n]*`/g, '')
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
}

/** GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as hyphens. */
function headingSlugs(markdown: string): Set<string> {
  const headings = markdown.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, '').matchAll(/^#{1,6} (.+)$/gm)
  return new Set(
    [...headings].map((match) =>
      (match[1] ?? '')
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    ),
  )
}
