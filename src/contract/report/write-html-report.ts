import { resolve } from 'node:path'
import type { JsonTestResults } from 'vitest/node'
import { readContractSections, readFileSection } from '../rules/contract-sections.js'
import { redactSecrets } from '../../text/redact-secrets.js'
import { renderHtmlReport } from './render-html-report.js'
import { groupChecks } from './report-checks.js'
import { writeReportFile } from '../../files/write-report-file.js'

/** One finished run of the suite, and where its HTML report goes. */
export interface HtmlReportRun {
  /** The file to write, relative to the working directory; its folder is made if missing. */
  path: string
  /** vitest's JSON results of the run (SuiteOutcome.results). */
  results: JsonTestResults
  /** Why each skipped check was skipped (SuiteOutcome.skipNotes). */
  skipNotes: ReadonlyMap<string, string>
  baseUrl: string
  exitCode: number
  /** Said under the summary. */
  notes: string[]
  /** The target's tokens, masked wherever a message would show one; none with --show-secrets. */
  secrets: readonly string[]
}

/**
 * Writes the run's HTML report (render-html-report.ts), built from the JSON results the suite already
 * produced: nothing runs again. Answers the file's absolute path.
 *
 * @example
 * await writeHtmlReport({ path: 'out/verify.html', results, skipNotes, baseUrl, exitCode: 1, notes: [], secrets })
 */
export async function writeHtmlReport(run: HtmlReportRun): Promise<string> {
  const files = run.results.testResults.map((file) => file.name)
  const fileSections = new Map<string, number>()
  for (const file of files) {
    const section = await readFileSection(file)
    if (section !== undefined) fileSections.set(file, section)
  }
  const groups = groupChecks(run.results, {
    skipNotes: run.skipNotes,
    sections: await readContractSections(),
    fileSections,
  })
  // The JSON results are masked already (contract-violation.ts); a second pass costs nothing.
  for (const check of groups.flatMap((group) => group.checks))
    check.messages = check.messages.map((message) => redactSecrets(message, run.secrets))
  const page = renderHtmlReport({
    baseUrl: run.baseUrl,
    date: new Date(run.results.startTime),
    exitCode: run.exitCode,
    groups,
    notes: run.notes.map((note) => redactSecrets(note, run.secrets)),
  })
  const path = resolve(run.path)
  await writeReportFile(path, page)
  return path
}
