import { basename } from 'node:path'
import type { JsonAssertionResult, JsonTestResult, JsonTestResults } from 'vitest/node'
import { citedSection } from '../rules/contract-sections.js'
import { checkKey, HOOK_FAILED } from '../suite/check-key.js'

export type CheckStatus = 'passed' | 'failed' | 'skipped'

/** One check of a run, as a report for people shows it. */
export interface ReportedCheck {
  /** The test's own title: `[core] a missing Authorization header is a 401 …`. */
  title: string
  /** The describe blocks around it, ` > ` between them: the rule it is a case of. */
  rule: string
  /** The suite's file it is in, e.g. `authentication.contract.test.ts`. */
  file: string
  status: CheckStatus
  /** A failure's bug reports (rule, exchange, curl), or why the check was skipped. */
  messages: string[]
}

/** The checks of one section of docs/contract.md, or of one file of the suite that cites none. */
export interface ReportGroup {
  /** `§2`, or the file's name. */
  id: string
  title: string
  checks: ReportedCheck[]
}

/** What a report adds to vitest's JSON results: what the JSON leaves out, and where things belong. */
export interface ReportSources {
  /** Why each skipped check was skipped, by `checkKey` (SuiteOutcome.skipNotes). */
  skipNotes: ReadonlyMap<string, string>
  /** The titles of docs/contract.md's sections, by number. */
  sections: ReadonlyMap<number, string>
  /** The section each file of the suite is about, by its path (its `// CONTRACT §N` comment). */
  fileSections: ReadonlyMap<string, number>
}

/**
 * The checks of a run, from vitest's JSON results, grouped by the section of docs/contract.md they
 * belong to: the one their name cites, else the one their file is about, else the one their failure
 * cites; a check that says none is grouped under its file. Sections come in the contract's order.
 * The counts are the CLI summary's: a check whose file stopped before it finished failed.
 */
export function groupChecks(results: JsonTestResults, sources: ReportSources): ReportGroup[] {
  const groups = new Map<string, ReportGroup>()
  for (const file of results.testResults) {
    for (const { check, section } of checksOf(file, sources)) {
      const id = section === undefined ? check.file : `§${section}`
      const title = section === undefined ? check.file : `§${section} ${sources.sections.get(section) ?? ''}`.trim()
      const group = groups.get(id) ?? { id, title, checks: [] }
      group.checks.push(check)
      groups.set(id, group)
    }
  }
  return [...groups.values()].sort(compareGroups)
}

function checksOf(file: JsonTestResult, sources: ReportSources) {
  const name = basename(file.name)
  const fileSection = sources.fileSections.get(file.name)
  if (file.assertionResults.length === 0 && file.message) {
    // The file could not be loaded: one failed check, as the summary counts it (run-suite.ts).
    const check: ReportedCheck = {
      title: '(could not run)',
      rule: '',
      file: name,
      status: 'failed',
      messages: [file.message],
    }
    return [{ check, section: fileSection ?? citedSection(file.message) }]
  }
  return file.assertionResults.map((result) => {
    const check = toCheck(result, name, sources.skipNotes.get(checkKey(file.name, fullNameOf(result))))
    const section =
      citedSection([...result.ancestorTitles, result.title].join(' ')) ??
      fileSection ??
      citedSection(check.messages.join('\n'))
    return { check, section }
  })
}

function toCheck(result: JsonAssertionResult, file: string, skipNote: string | undefined): ReportedCheck {
  const check = { title: result.title, rule: result.ancestorTitles.join(' > '), file }
  switch (result.status) {
    case 'passed':
      return { ...check, status: 'passed', messages: [] }
    case 'failed':
      return { ...check, status: 'failed', messages: result.failureMessages ?? [] }
    case 'skipped':
    case 'todo':
    case 'disabled':
      // No reason noted (run-suite.ts notes every skip's): a hook of its file failed. Counted as the summary counts it.
      if (skipNote === undefined) return { ...check, status: 'failed', messages: [HOOK_FAILED] }
      return { ...check, status: 'skipped', messages: [skipNote] }
    default:
      // Collected and never finished (pending): its file stopped. Counted as the summary counts it.
      return { ...check, status: 'failed', messages: ['did not run: its test file stopped'] }
  }
}

/** vitest's `TestCase.fullName`: the JSON report's own `fullName` joins the titles with spaces. */
function fullNameOf(result: JsonAssertionResult): string {
  return [...result.ancestorTitles, result.title].join(' > ')
}

/** Sections by number, then files by name. */
function compareGroups(a: ReportGroup, b: ReportGroup): number {
  const order = sectionNumber(a) - sectionNumber(b)
  return Number.isNaN(order) || order === 0 ? a.id.localeCompare(b.id) : order
}

function sectionNumber(group: ReportGroup): number {
  return group.id.startsWith('§') ? Number(group.id.slice(1)) : Infinity
}

/** How many checks passed, failed and were skipped; `all` is their sum. */
export function countChecks(checks: readonly ReportedCheck[]): Record<CheckStatus | 'all', number> {
  const counts = { all: checks.length, passed: 0, failed: 0, skipped: 0 }
  for (const check of checks) counts[check.status] += 1
  return counts
}
