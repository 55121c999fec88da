import { basename } from 'node:path'
import type { Reporter, TestCase, Vitest } from 'vitest/node'
import { withSourceNames } from '../suite/suite-files.js'
import { plural } from '../../text/plural.js'

/** Where a run stopped on Ctrl-C: the check running then, and how many had ended before. */
export interface Interruption {
  /** Where it stopped: `at webhooks.contract.test.ts > … > [profile] a refused delivery…`, or `between two files`. */
  at: string
  /** Checks that had ended (passed, failed or skipped) when it stopped. */
  ended: number
  /**
   * The run's files that had not started: vitest never collected them, so their checks are in no count
   * (a file that started counts its checks left as not run).
   */
  filesNotStarted: number
}

/** What `stopOnCtrlC` gives the run: a reporter that follows it, and whether and where it stopped. */
export interface CtrlCWatch {
  reporter: Reporter
  interruption(): Interruption | undefined
  /** Gives SIGINT back to Node's default (the process ends at once). */
  dispose(): void
}

/**
 * Ctrl-C (SIGINT) during a run: the first stops it where it is (vitest ends the checks running and starts
 * no other; its reporters write what ran) and says so on stderr; a second ends the process at once, 130.
 *
 * @example
 * const ctrlC = stopOnCtrlC()
 * await startVitest('test', [], { reporters: [ctrlC.reporter] })
 * ctrlC.dispose()
 */
export function stopOnCtrlC(write: (line: string) => void = (line) => console.error(line)): CtrlCWatch {
  let vitest: Vitest | undefined
  let stopped: Interruption | undefined
  const running = new Map<string, TestCase>()
  let ended = 0
  let files = 0
  const started = new Set<string>()
  const onSigint = (): void => {
    if (stopped) process.exit(130)
    const [current] = running.values()
    stopped = {
      at: current
        ? `at ${basename(withSourceNames(current.module.moduleId))} > ${current.fullName}`
        : 'between two files',
      ended,
      filesNotStarted: Math.max(0, files - started.size),
    }
    write(
      `\nusers-api-kit verify: interrupted (Ctrl-C) ${stopped.at}, after ${plural(ended, 'check')}: stopping, and writing the reports asked for with what ran (Ctrl-C again ends at once).`,
    )
    void vitest?.cancelCurrentRun('keyboard-input')
  }
  const others = new Set(process.listeners('SIGINT'))
  process.on('SIGINT', onSigint)
  return {
    reporter: {
      onInit(ctx) {
        vitest = ctx
        // vitest's logger ends the process on SIGINT (1 ms later, before any report is written): this
        // handler stands in for it while the run lasts.
        for (const listener of process.listeners('SIGINT'))
          if (listener !== onSigint && !others.has(listener)) process.off('SIGINT', listener)
      },
      onTestRunStart(specifications) {
        files = specifications.length
      },
      onTestModuleStart(module) {
        started.add(module.moduleId)
      },
      onTestCaseReady(test) {
        running.set(test.id, test)
      },
      onTestCaseResult(test) {
        running.delete(test.id)
        ended += 1
      },
    },
    interruption: () => stopped,
    dispose: () => process.off('SIGINT', onSigint),
  }
}
