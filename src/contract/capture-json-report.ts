import type { JsonTestResults, Reporter } from 'vitest/node'

/** vitest's JSON reporter, writing to memory instead of a file. */
export interface JsonReportCapture {
  reporter: Reporter
  /** The run's JSON results, once vitest has finished it; undefined before. */
  results(): JsonTestResults | undefined
}

/**
 * vitest's own JSON reporter (the one behind `--json`), whose report is kept in memory: the HTML report
 * reads the same results, and no extra file holds them.
 *
 * @example
 * const capture = await captureJsonReport()
 * await startVitest('test', [], { reporters: ['default', capture.reporter] })
 * capture.results()?.numFailedTests
 */
export async function captureJsonReport(): Promise<JsonReportCapture> {
  // Imported when needed, as run-suite.ts imports vitest: the CLI starts without loading it.
  const { JsonReporter } = await import('vitest/node')
  let report: string | undefined
  class MemoryJsonReporter extends JsonReporter {
    override async writeReport(text: string): Promise<void> {
      report = text
    }
  }
  return {
    reporter: new MemoryJsonReporter({}),
    results: () => (report === undefined ? undefined : (JSON.parse(report) as JsonTestResults)),
  }
}
