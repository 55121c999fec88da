// The fenced blocks of README.md and docs/*.md as the docs test reads them: which to run, the commands
// of the ```sh ones and the exit code each is expected to end with, the code of the ```ts ones.

import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** The pages whose blocks the docs tests run, relative to the root: README.md and docs/*.md. */
export const DOC_PAGES = [
  'README.md',
  ...readdirSync(fileURLToPath(new URL('../../docs', import.meta.url)))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
]

/** `<!-- not run by the docs test: REASON -->`, on the last non-blank line above a block. */
const SKIP_COMMENT = /^<!--\s*not run by the docs test\s*(?::(.*?))?-->\s*$/

/** The blocks the test runs: shell commands and TypeScript. */
const RUNNABLE = ['sh', 'ts']
/** A trailing comment saying a command does not exit 0: `# exits 2 until it is filled in`. */
const EXPECTED_EXIT = /\bexits (\d+)\b/

export interface ShCommand {
  /** The command as written, continuation lines joined, its trailing comment included. */
  text: string
  /** The command without its trailing comment. */
  code: string
  /** 0, or the code its comment names (`# exits 2`). */
  expectedExit: number
  /** 1-based line of the README where it starts. */
  line: number
}

export interface CodeBlock {
  /** 1-based line of the opening fence. */
  line: number
  /** The heading the block sits under. */
  heading: string
  /** The block's text, without its fences. */
  code: string
  /** Why the docs test does not run it; undefined for a block it runs. */
  skipReason?: string
}

export interface ShBlock extends CodeBlock {
  commands: ShCommand[]
}

export interface DocFences {
  sh: ShBlock[]
  ts: CodeBlock[]
  /** Every fenced block's info string (`sh`, `console`, `ts`, `` for none), with its line. */
  infoStrings: Array<{ info: string; line: number }>
  /** Skip comments not directly above a ```sh or ```ts block (a block that moved away from its reason). */
  strayComments: number[]
}

/**
 * The fenced blocks of a Markdown text: the ```sh ones split into commands, the ```ts ones whole.
 *
 * @example
 * readFences('<!-- not run by the docs test: installs -->\n\n```sh\nnpm ci\n```\n').sh[0]?.skipReason // 'installs'
 */
export function readFences(markdown: string): DocFences {
  const lines = markdown.split('\n')
  const result: DocFences = { sh: [], ts: [], infoStrings: [], strayComments: [] }
  let heading = ''
  let lastText: { text: string; line: number } | undefined
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? ''
    const fence = /^(`{3,})\s*(\S*)/.exec(line)
    if (!fence) {
      if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '')
      if (line.trim() !== '') {
        if (lastText && SKIP_COMMENT.test(lastText.text)) result.strayComments.push(lastText.line)
        lastText = { text: line.trim(), line: index + 1 }
      }
      continue
    }
    const info = fence[2] ?? ''
    const start = index
    const body: string[] = []
    for (index++; index < lines.length && !(lines[index] ?? '').startsWith(fence[1] ?? '```'); index++) {
      body.push(lines[index] ?? '')
    }
    result.infoStrings.push({ info, line: start + 1 })
    const skip = lastText && SKIP_COMMENT.exec(lastText.text)
    if (skip && !RUNNABLE.includes(info)) result.strayComments.push(lastText?.line ?? 0)
    lastText = undefined
    const block: CodeBlock = {
      line: start + 1,
      heading,
      code: body.join('\n'),
      ...(skip ? { skipReason: (skip[1] ?? '').trim() } : {}),
    }
    if (info === 'ts') result.ts.push(block)
    if (info === 'sh') result.sh.push({ ...block, commands: splitCommands(body, start + 2) })
  }
  if (lastText && SKIP_COMMENT.test(lastText.text)) result.strayComments.push(lastText.line)
  return result
}

/** One command a line, lines ending in `\` joined with the next; blank lines and comment lines left out. */
function splitCommands(body: string[], firstLine: number): ShCommand[] {
  const commands: ShCommand[] = []
  let pending: { text: string; line: number } | undefined
  body.forEach((raw, offset) => {
    const line = raw.trimEnd()
    if (pending === undefined && (line.trim() === '' || line.trim().startsWith('#'))) return
    const text = pending ? `${pending.text}\n${line}` : line
    const startLine = pending?.line ?? firstLine + offset
    if (line.endsWith('\\')) {
      pending = { text, line: startLine }
      return
    }
    pending = undefined
    const { code, comment } = splitComment(text)
    const expected = comment === undefined ? undefined : EXPECTED_EXIT.exec(comment)
    commands.push({ text, code, expectedExit: expected ? Number(expected[1]) : 0, line: startLine })
  })
  if (pending) throw new Error(`A command at line ${pending.line} ends in \\ with nothing after it.`)
  return commands
}

/**
 * A command and its trailing comment: a `#` that starts a word outside quotes starts the comment.
 *
 * @example
 * splitComment(`curl -H 'a # b' http://x   # back to the seed`) // { code: "curl -H 'a # b' http://x", comment: 'back to the seed' }
 */
export function splitComment(text: string): { code: string; comment?: string } {
  let quote: string | undefined
  for (let index = 0; index < text.length; index++) {
    const character = text[index]
    if (quote !== undefined) {
      if (character === quote) quote = undefined
      else if (character === '\\' && quote === '"') index++
      continue
    }
    if (character === '\\') index++
    else if (character === "'" || character === '"') quote = character
    else if (character === '#' && (index === 0 || /\s/.test(text[index - 1] ?? ''))) {
      return { code: text.slice(0, index).trimEnd(), comment: text.slice(index + 1).trim() }
    }
  }
  return { code: text.trimEnd() }
}
