import { basename } from 'node:path'
import type { Reporter, TestModule } from 'vitest/node'
import { withSourceNames } from '../suite/suite-files.js'

/**
 * What verify prints while it runs: one line a file of the suite, its checks counted. The failures
 * themselves are printed once the run is over, summarised by rule first (summarize-failures.ts), so a
 * run against a backend that breaks one rule everywhere reads in a minute.
 *
 * @example
 * await startVitest('test', [], { reporters: [progressReporter()] })
 */
export function progressReporter(write: (line: string) => void = (line) => console.log(line)): Reporter {
  return {
    // What the suite itself says (a receiver it could not remove), as it says it.
    onUserConsoleLog(log) {
      const text = log.content.replace(/\n$/, '')
      if (log.type === 'stderr') console.error(text)
      else write(text)
    },
    onTestModuleEnd(module: TestModule) {
      const tests = [...module.children.allTests()]
      const failed = tests.filter((test) => test.result().state === 'failed').length
      const skipped = tests.filter((test) => test.result().state === 'skipped').length
      const broken = module.errors().length > 0 || (module.state() === 'failed' && tests.length === 0)
      const mark = failed > 0 || broken ? '✗' : '✓'
      const counts = [
        `${tests.length} ${tests.length === 1 ? 'check' : 'checks'}`,
        ...(failed > 0 ? [`${failed} failed`] : []),
        ...(skipped > 0 ? [`${skipped} skipped`] : []),
        ...(broken ? ['the file could not run whole'] : []),
      ]
      const duration = module.diagnostic().duration
      write(` ${mark} ${basename(withSourceNames(module.moduleId))} (${counts.join(', ')}) ${Math.round(duration)} ms`)
    },
  }
}
