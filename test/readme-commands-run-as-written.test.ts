import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../src/server/start-mock.js'
import { buildCliOnce, MAIN, ROOT } from './support/cli-mock-process.js'
import { readFences, type ShBlock, type ShCommand } from './support/readme-sh-blocks.js'

// Every command of the README's ```sh blocks runs as written: in a temporary folder, against a mock this
// file starts, with two rewrites (the README's mock URL becomes this mock's, `npx users-api-kit` the
// built CLI) and one check added (curl fails on an HTTP error, so that a documented call answering 4xx
// is caught). Each command exits 0, or the code its comment names (`# exits 2`). `users-api-kit mock`
// runs until Ctrl-C: it is started on a free port and stopped with SIGTERM after its banner. A block
// that must not run (installs, `npm start`) says why in `<!-- not run by the README test: REASON -->`.

const README_MOCK_URL = 'http://127.0.0.1:4010'
const BANNER_END = 'Ctrl-C stops it.'

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
const fences = readFences(readme)
const runnable = fences.sh.filter((block) => block.skipReason === undefined)

let mock: RunningMock
let directory: string

beforeAll(async () => {
  await buildCliOnce()
  mock = await startMock()
  directory = await mkdtemp(join(tmpdir(), 'readme-commands-'))
}, 120_000)

afterAll(async () => {
  await mock?.close()
  if (directory) await rm(directory, { recursive: true, force: true })
})

describe("the README's sh blocks", () => {
  test('every block the test does not run says why', () => {
    const unexplained = fences.sh.filter((block) => block.skipReason === '').map((block) => `line ${block.line}`)
    expect(unexplained).toEqual([])
  })

  test('every "not run" comment sits right above the sh block it is about', () => {
    expect(fences.strayComments.map((line) => `line ${line}`)).toEqual([])
  })

  test('commands are written in sh blocks, which the test reads (not bash, shell or unlabelled blocks)', () => {
    const elsewhere = fences.infoStrings.filter(({ info }) => ['', 'bash', 'shell', 'zsh'].includes(info))
    expect(elsewhere.map(({ info, line }) => `line ${line}: \`\`\`${info}`)).toEqual([])
  })

  test('each quick start has a block that runs', () => {
    const quickStarts = new Set(
      fences.sh.map((block) => block.heading).filter((heading) => /^Quick start/.test(heading)),
    )
    const withoutOne = [...quickStarts].filter((heading) => !runnable.some((block) => block.heading === heading))
    expect(quickStarts.size).toBeGreaterThanOrEqual(3)
    expect(withoutOne).toEqual([])
  })
})

describe('every command of the README runs as written', () => {
  for (const block of runnable) {
    test(`${block.heading} (README.md line ${block.line}): ${block.commands[0]?.code ?? ''}`, { timeout: 50_000 }, () =>
      runBlock(block),
    )
  }
})

/** Runs a block's commands in one shell (so that `TOKEN=…` reaches the next line), each exit code noted. */
async function runBlock(block: ShBlock): Promise<void> {
  const exitCodes = join(directory, '.exit-codes')
  const script = [`exec 3>${quote(exitCodes)}`, ...block.commands.map((command) => asRun(command))].join('\n')
  const result = await execa('bash', ['-c', script], {
    cwd: directory,
    all: true,
    reject: false,
    timeout: 45_000,
    env: { USERS_API_KIT_CONTROL_TOKEN: undefined, NO_COLOR: '1', FORCE_COLOR: '0' },
  })
  const codes = (await readFile(exitCodes, 'utf8')).split('\n').filter(Boolean).map(Number)
  const outcomes = block.commands.map((command, index) => ({
    command: `README.md line ${command.line}: ${command.text}`,
    exitCode: codes[index] ?? `did not run (the shell ended: ${result.exitCode ?? result.signal})`,
  }))
  const expected = block.commands.map((command) => ({
    command: `README.md line ${command.line}: ${command.text}`,
    exitCode: command.expectedExit,
  }))
  expect(outcomes, `Output of the block:\n${result.all}`).toEqual(expected)
}

/** The command as this test runs it, followed by noting its exit code on file descriptor 3. */
function asRun(command: ShCommand): string {
  const code = command.code
    .replaceAll(README_MOCK_URL, mock.url)
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
  const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'))].map((name) =>
    name === 'README.md' ? join(ROOT, name) : join(ROOT, 'docs', name),
  )

  test('every relative link reaches a file or folder of the kit, and every #anchor a heading', () => {
    const broken: string[] = []
    for (const page of pages) {
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
