import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

/** The contract in prose, shipped with the kit: its numbered sections are what checks cite. */
const CONTRACT_PATH = fileURLToPath(new URL('../../../docs/contract.md', import.meta.url))

/** How a check's name or message cites the contract: "docs/contract.md §3". */
const CITATION = /docs\/contract\.md §(\d+)/

/** How a file of the suite says which section it is about, in a comment starting a line: "// CONTRACT §3". */
const FILE_CITATION = /^\/\/ CONTRACT §(\d+)/m

/**
 * The numbered sections of docs/contract.md (`## 2. Authentication **[core]**`), by number, their titles
 * without marks. Empty when the page cannot be read: sections are then shown by number alone.
 *
 * @example
 * (await readContractSections()).get(2) // 'Authentication'
 */
export async function readContractSections(path = CONTRACT_PATH): Promise<Map<number, string>> {
  const text = await readFile(path, 'utf8').catch(() => '')
  const sections = new Map<number, string>()
  for (const [, number, title = ''] of text.matchAll(/^## (\d+)\. (.+)$/gm)) {
    sections.set(Number(number), title.replace(/\*\*\[[^\]]*\]\*\*/g, '').trim())
  }
  return sections
}

/**
 * The first section of the contract a text cites, if it cites one.
 *
 * @example
 * citedSection('A 401 carries WWW-Authenticate (docs/contract.md §2)') // 2
 */
export function citedSection(text: string): number | undefined {
  const match = CITATION.exec(text)
  return match ? Number(match[1]) : undefined
}

/**
 * The section a file of the suite is about: the first `// CONTRACT §N` comment that starts a line.
 * Undefined when the file says none, or cannot be read.
 *
 * @example
 * await readFileSection('contract-tests/authentication.contract.test.ts') // 2
 */
export async function readFileSection(path: string): Promise<number | undefined> {
  const match = FILE_CITATION.exec(await readFile(path, 'utf8').catch(() => ''))
  return match ? Number(match[1]) : undefined
}
