import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ROOT } from './server-process.js'

const BENCHMARKS_FILE = join(ROOT, 'BENCHMARKS.md')

/** A section of BENCHMARKS.md one command writes between its own markers. */
export interface OwnSection {
  begin: string
  end: string
  /** Where a first run puts it: right after the first of these markers found, else at the end. */
  after: string[]
}

/**
 * Writes a command's section into BENCHMARKS.md between its own markers, leaving the rest alone
 * (`npm run bench` keeps what follows its part, as it keeps the hand-written findings), so that no
 * command overwrites another's figures. Formatted by Prettier as `npm run lint` expects.
 */
export async function writeOwnSection({ begin, end, after }: OwnSection, section: string): Promise<void> {
  const existing = await readFile(BENCHMARKS_FILE, 'utf8').catch(() => '# Benchmarks of the mock\n')
  const block = `${begin}\n\n${section}\n\n${end}`
  const anchor = after.find((marker) => existing.includes(marker))
  let text: string
  if (existing.includes(begin) && existing.includes(end)) {
    text = `${existing.slice(0, existing.indexOf(begin))}${block}${existing.slice(existing.indexOf(end) + end.length)}`
  } else if (anchor !== undefined) {
    const at = existing.indexOf(anchor) + anchor.length
    text = `${existing.slice(0, at)}\n\n${block}${existing.slice(at)}`
  } else {
    text = `${existing.trimEnd()}\n\n${block}\n`
  }
  const prettier = await import('prettier')
  const options = { ...(await prettier.resolveConfig(BENCHMARKS_FILE)), filepath: BENCHMARKS_FILE }
  await writeFile(BENCHMARKS_FILE, await prettier.format(text, options))
}
