import type { JsonTestResults, Reporter, TestModule } from 'vitest/node'
import { loadVitest } from '../suite/load-vitest.js'
import { withSourceNames } from '../suite/suite-files.js'

/** vitest's JSON reporter, writing to memory instead of a file; the suite's files named by their sources. */
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
  const { JsonReporter } = await loadVitest()
  let report: string | undefined
  class MemoryJsonReporter extends JsonReporter {
    // With `stdout: true`, vitest's JSON reporter prints the report with the run's logger, and does so
    // before its first await: the logger's log is borrowed for that synchronous part only, so that the
    // report is caught and no other reporter's line is.
    override onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
      const logger = this.ctx.logger
      const log = logger.log
      logger.log = (text: string) => {
        report = text
      }
      try {
        return super.onTestRunEnd(testModules)
      } finally {
        logger.log = log
      }
    }
  }
  return {
    reporter: new MemoryJsonReporter({ stdout: true }),
    results: () => (report === undefined ? undefined : (JSON.parse(withSourceNames(report)) as JsonTestResults)),
  }
}
