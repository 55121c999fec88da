import { readFile } from 'node:fs/promises'
import { Writable } from 'node:stream'
import { join, resolve } from 'node:path'
import type { JsonTestResults, Reporter, Vitest } from 'vitest/node'
import { writeReportFile } from '../../files/write-report-file.js'
import { captureJsonReport } from '../report/capture-json-report.js'
import { loadVitest } from '../suite/load-vitest.js'
import { checkKey, HOOK_FAILED } from '../suite/check-key.js'
import { createScratchDirectory } from '../../files/scratch-directory.js'
import type { SuiteLayer } from '../client/response-schemas.js'
import { progressReporter } from '../report/progress-reporter.js'
import { chosenSkipReason, INTERRUPTED_REASON, isChosenSkip, isNotRun, RUN_TIMEOUT_REASON } from './skip-reasons.js'
import { stopOnCtrlC, type Interruption } from './stop-on-ctrl-c.js'
import type { FailedCheck } from '../report/summarize-failures.js'
import { SUITE_SETTINGS, type SuiteSettings } from './suite-settings.js'
import { isWaitingFile, OTHER_FILES_ENDED, SUITE_TEST_SETTINGS, waitingFilesFirst } from './suite-config.js'
import {
  BUILT_SUITE_DIR,
  BUILT_SUITE_FILES,
  STOP_AFTER_FIRST_FAILURE,
  STOP_AT_THE_RUN_DEADLINE,
  withSourceNames,
} from '../suite/suite-files.js'
import type { Target } from '../target/target.js'
import type { LoadedSpec } from '../../spec/load-spec.js'

export interface SuiteRunOptions {
  target: Target
  spec?: string
  /** The document `spec` names, read already: handed to the suite's workers as it is. */
  loadedSpec?: LoadedSpec
  layer: SuiteLayer
  readOnly: boolean
  junit?: string
  json?: string
  grep?: string
  bail: boolean
  timeoutMs: number
  /** The whole run's deadline, from its start (--run-timeout). */
  runTimeoutMs: number
  maxResponseBytes: number
  /** Tokens in reports as they are, not `***`. */
  showSecrets: boolean
  /** Keep vitest's JSON results in the outcome (for the HTML report), whether or not `json` is given. */
  keepResults?: boolean
}

export interface SuiteOutcome {
  passed: number
  failed: number
  skipped: number
  /** Checks `--bail` (after the first failure) or `--run-timeout` kept from running: passed + failed + skipped + notRun is every check. */
  notRun: number
  /** Why checks were skipped, with how many each reason skipped; a chosen skip's reason is marked (skip-reasons.ts). */
  skipReasons: Map<string, number>
  /** The skip reasons that are not the user's choice: what the target lacks, with how many checks each skipped. */
  lacks: Map<string, number>
  /** The failed checks' full names; a check that never ran because its file stopped is one of them. */
  failures: string[]
  /** The failed checks with what each said, in the order they ran. */
  failedChecks: FailedCheck[]
  /** Whether the run passed its --run-timeout (its remaining checks are counted in `notRun`). */
  timedOut: boolean
  /** Where Ctrl-C stopped the run, if it did (its remaining checks are counted in `notRun`). */
  interrupted?: Interruption
  /** Why each skipped check was skipped, by its `checkKey`: vitest's JSON report leaves the reason out. */
  skipNotes: Map<string, string>
  /** vitest's JSON results of this run, when `keepResults`. */
  results?: JsonTestResults
}

/** What the suite's workers are told of this run (suite-settings.ts). */
function suiteSettings(options: SuiteRunOptions): SuiteSettings {
  return {
    target: options.target,
    spec: options.spec,
    loadedSpec: options.loadedSpec,
    layer: options.layer,
    readOnly: options.readOnly,
    timeoutMs: options.timeoutMs,
    maxResponseBytes: options.maxResponseBytes,
    showSecrets: options.showSecrets,
    runDeadline: Date.now() + options.runTimeoutMs,
    ownThreadForWaitingFiles: workersFor(options) === 2,
  }
}

/** A report vitest writes into the kit's folder (`from`), and where it then goes (`to`). */
interface ReportMove {
  from: string
  to: string
}

/**
 * Runs the contract suite (contract-tests/) against one target through vitest's Node API; the target
 * and the run's settings reach the workers by vitest's `provide` (suite-settings.ts).
 */
export async function runSuite(options: SuiteRunOptions): Promise<SuiteOutcome> {
  // Ctrl-C stops the run, which then writes its reports from this folder (stop-on-ctrl-c.ts): the folder
  // is left to the run's end, or to the process's exit on a second Ctrl-C.
  const folder =
    options.junit || options.json
      ? await createScratchDirectory('users-api-kit-reports-', ['SIGTERM', 'SIGHUP'])
      : undefined
  // vitest's reporters open their files as named, through any symbolic link: they write into a folder of
  // the kit's own, and the reports are then put in place as the state file is (write-report-file.ts).
  // vitest resolves report paths against the suite's root (contract-tests/): the user means their cwd.
  const move = (name: string, wanted: string | undefined): ReportMove | undefined =>
    folder && wanted ? { from: join(folder.path, name), to: resolve(wanted) } : undefined
  const reports = { junit: move('junit.xml', options.junit), json: move('report.json', options.json) }
  try {
    const outcome = await runVitest(options, reports)
    const mark = outcome.interrupted ? markInterrupted : (text: string) => text
    for (const report of [reports.junit, reports.json]) {
      const text = report && (await readFile(report.from, 'utf8').catch(() => undefined))
      if (report && text !== undefined) await writeReportFile(report.to, mark(withSourceNames(text)))
    }
    return outcome
  } finally {
    await folder?.remove()
  }
}

async function runVitest(
  options: SuiteRunOptions,
  reports: { junit?: ReportMove; json?: ReportMove },
): Promise<SuiteOutcome> {
  const { startVitest, BaseSequencer } = await loadVitest()
  const release = releaseWaitingThread()
  const ctrlC = stopOnCtrlC()
  // One line a file while it runs; the failures, by rule first, once it is over (verify-command.ts).
  const reporters: Array<string | [string, Record<string, unknown>] | Reporter> = [
    progressReporter(),
    ctrlC.reporter,
    release.reporter,
  ]
  if (reports.junit) reporters.push(['junit', { outputFile: reports.junit.from, suiteName: 'users-api-kit verify' }])
  if (reports.json) reporters.push(['json', { outputFile: reports.json.from }])
  // The same results as --json's, held in memory: nothing more is written, and nothing runs twice.
  const capture = options.keepResults ? await captureJsonReport() : undefined
  const namePatterns = [options.layer === 'core' ? '\\[core\\]' : '', options.grep ?? ''].filter(Boolean)
  const vitest = await startVitest(
    'test',
    [],
    {
      // The suite as built with the package (dist/contract-tests/), its settings given here: no
      // configuration file is looked for or loaded, and Node imports the files as they are (no module
      // runner transforms them), so nothing is written inside the kit, which may be an installed package.
      config: false,
      root: BUILT_SUITE_DIR,
      include: [BUILT_SUITE_FILES],
      ...SUITE_TEST_SETTINGS,
      experimental: { viteModuleRunner: false, nodeLoader: false },
      sequence: { sequencer: waitingFilesFirst(BaseSequencer) },
      run: true,
      provide: { [SUITE_SETTINGS]: suiteSettings(options) },
      watch: false,
      reporters: capture ? [...reporters, capture.reporter] : reporters,
      maxWorkers: workersFor(options),
      ...(namePatterns.length > 0
        ? { testNamePattern: namePatterns.map((pattern) => `(?=.*(?:${pattern}))`).join('') }
        : {}),
      setupFiles: [STOP_AT_THE_RUN_DEADLINE, ...(options.bail ? [STOP_AFTER_FIRST_FAILURE] : [])],
      // No results cache (vitest keeps one under the root's node_modules/.vite), no cache of modules.
      cache: false,
      fsModuleCache: false,
      // A check sends a few requests in a row, each allowed the whole --timeout (the client stops sending
      // after 3 timeouts in a row): the request's timeout, which says what happened, must come first.
      ...testTimeouts(options.timeoutMs),
    },
    undefined,
    { stdout: namingReportsWhereTheyGo([reports.junit, reports.json]) },
  ).finally(() => {
    ctrlC.dispose()
    release.close()
  })
  const interrupted = ctrlC.interruption()
  const outcome = summarize(vitest.state.getTestModules(), interrupted !== undefined)
  await vitest.close()
  return { ...outcome, ...(interrupted ? { interrupted } : {}), results: capture?.results() }
}

/** vitest's own output (`JUnit report written to …`), naming each report where it goes, not where vitest wrote it. */
function namingReportsWhereTheyGo(reports: Array<ReportMove | undefined>): Writable {
  const output = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      // vitest capitalises the reporter's name ("JUNIT report written to"): the format is JUnit.
      let text = chunk.toString().replaceAll('JUNIT report', 'JUnit report')
      for (const report of reports) if (report) text = text.replaceAll(report.from, report.to)
      // At once, as the process's own stdout: a message still waiting when verify exits would be lost.
      process.stdout.write(text)
      done()
    },
  })
  // vitest pipes its worker's output here, and a pipe ends its destination with it: this one stays
  // open, as process.stdout does.
  output.end = () => output
  return output
}

/**
 * Tells the waiting files' thread (suite-config.ts) when every other file has ended, or the run was
 * stopped (Ctrl-C): it then ends, having run nothing else.
 */
function releaseWaitingThread(): { reporter: Reporter; close(): void } {
  const channel = new BroadcastChannel(OTHER_FILES_ENDED)
  let others = Number.POSITIVE_INFINITY
  let ended = 0
  const release = (): void => channel.postMessage('ended')
  process.once('SIGINT', release)
  return {
    reporter: {
      onTestRunStart(specifications) {
        others = specifications.filter((specification) => !isWaitingFile(specification.moduleId)).length
        if (others === 0) release()
      },
      onTestModuleEnd(module) {
        if (!isWaitingFile(module.moduleId) && (ended += 1) === others) release()
      },
    },
    close() {
      process.off('SIGINT', release)
      channel.close()
    },
  }
}

/**
 * Two threads when the webhook checks run: they spend seconds waiting for deliveries and retries, which
 * then pass beside the rest of the suite in the other thread (each thread costs 60-70 MiB). One otherwise,
 * and under --bail, whose first failure must stop every later check.
 */
function workersFor(options: SuiteRunOptions): number {
  return options.target.webhooks && options.layer === 'all' && !options.readOnly && !options.bail ? 2 : 1
}

/** vitest's own limits per check and hook (suite-config.ts: 30 s), raised for a long --timeout. */
function testTimeouts(timeoutMs: number): { testTimeout?: number; hookTimeout?: number } {
  const needed = 4 * timeoutMs + 5_000
  return needed > 30_000 ? { testTimeout: needed, hookTimeout: needed } : {}
}

type TestModules = ReturnType<Vitest['state']['getTestModules']>

/** What the suite's name filters (--only core, --grep) left out: the user's choice. */
const NOT_SELECTED_REASON = chosenSkipReason('not selected (--only core, --grep)')

/**
 * A report of a run Ctrl-C stopped, marked so: the JUnit suite's name says it, the JSON results carry
 * `"interrupted": true`.
 */
function markInterrupted(text: string): string {
  if (text.trimStart().startsWith('<')) {
    return text.replace('name="users-api-kit verify"', 'name="users-api-kit verify (interrupted by Ctrl-C)"')
  }
  try {
    return JSON.stringify({ interrupted: true, ...(JSON.parse(text) as object) })
  } catch {
    return text
  }
}

function summarize(modules: TestModules, interrupted = false): SuiteOutcome {
  const outcome: SuiteOutcome = {
    passed: 0,
    failed: 0,
    skipped: 0,
    notRun: 0,
    skipReasons: new Map(),
    lacks: new Map(),
    failures: [],
    failedChecks: [],
    timedOut: false,
    skipNotes: new Map(),
  }
  const fail = (name: string, message: string): void => {
    outcome.failed += 1
    outcome.failures.push(name)
    outcome.failedChecks.push({ name, message })
  }
  for (const module of modules) {
    const moduleErrors = module.errors().map((error) => error.message)
    const file = withSourceNames(module.moduleId)
    if (module.state() === 'failed' && [...module.children.allTests()].length === 0) {
      fail(`${file} (could not run)`, moduleErrors.join('\n') || 'the file could not run')
    }
    for (const test of module.children.allTests()) {
      const result = test.result()
      if (result.state === 'passed') outcome.passed += 1
      else if (result.state === 'failed') {
        fail(test.fullName, result.errors[0]?.message ?? 'failed without a message')
      } else if (
        interrupted &&
        (result.state === 'pending' || (result.state === 'skipped' && isAborted(result.note)))
      ) {
        // Ctrl-C came first: never run, neither failed nor skipped.
        outcome.notRun += 1
        outcome.skipNotes.set(checkKey(file, test.fullName), INTERRUPTED_REASON)
      } else if (result.state === 'skipped' && result.note === undefined && test.options.mode !== 'skip') {
        // Skipped without a word, though selected: a hook of its file failed first.
        fail(`${test.fullName} (${HOOK_FAILED})`, moduleErrors.join('\n') || HOOK_FAILED)
      } else if (result.state === 'skipped') {
        const reason = result.note ?? NOT_SELECTED_REASON
        outcome.skipNotes.set(checkKey(file, test.fullName), reason)
        if (isNotRun(reason)) {
          outcome.notRun += 1
          if (reason === RUN_TIMEOUT_REASON) outcome.timedOut = true
          continue
        }
        outcome.skipped += 1
        addOne(outcome.skipReasons, reason)
        if (!isChosenSkip(reason)) addOne(outcome.lacks, reason)
      } else {
        // Collected and never finished: its file stopped (a crashed worker). Counted, so the totals add up.
        fail(
          `${test.fullName} (did not run: its test file stopped)`,
          moduleErrors.join('\n') || 'its test file stopped',
        )
      }
    }
  }
  return outcome
}

/** A check vitest skipped for Ctrl-C: no note, or vitest's own. */
function isAborted(note: string | undefined): boolean {
  return note === undefined || note === 'The test run was aborted by the user.'
}

function addOne(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1)
}
