import { parseArgs } from 'node:util'
import { isAppError } from '../errors.js'
import { escapeControlCharacters } from '../text/escape-control-characters.js'
import { findVitestProblem } from '../contract/suite/load-vitest.js'
import { assertReachable, resolveTarget } from '../contract/target/resolve-target.js'
import { runSuite, type SuiteOutcome } from '../contract/run/run-suite.js'
import {
  INTERRUPTED_REASON,
  isChosenSkip,
  NOT_RUN_REASON,
  RUN_TIMEOUT_REASON,
  withoutChoiceMark,
} from '../contract/run/skip-reasons.js'
import { formatFailures } from '../contract/report/summarize-failures.js'
import type { Target } from '../contract/target/target.js'
import { listTargetTokens } from '../contract/target/target-tokens.js'
import { writeHtmlReport } from '../contract/report/write-html-report.js'
import { loadSpec } from '../spec/load-spec.js'
import { readTargetOptions, TARGET_OPTIONS } from './shared-options.js'
import { readCommandArgs } from './read-command-args.js'
import { REPORT_FILES, reportPath } from './report-files.js'
import { plural } from '../text/plural.js'

export const VERIFY_USAGE = `users-api-kit verify — the contract suite, against any implementation of the users API

Usage:
  users-api-kit verify --target target.json        any deployment (see schemas/target.schema.json)
  users-api-kit verify --base-url http://127.0.0.1:4010   a running users-api-kit mock

  --spec FILE        The OpenAPI document to hold the backend to (default openapi/users.yaml)
  --only core        Only what the API's reference states (x-contract: core), for backends that
                     made other profile choices
  --read-only        Skip every check that writes (and say how many)
  --strict           A check skipped for what the target lacks (an actor, disposable users, data)
                     fails the run (exit 1), naming what is missing; skips you chose (--only core,
                     --grep, --read-only, "webhooks": false) do not. On when CI is set
  --no-strict        Such skips pass (the default outside CI)
  --out DIR          Write every report into DIR (made if missing, never cleaned up):
                     users-api-kit-verify.xml (JUnit), .json and .html
  --junit FILE       Write a JUnit XML report (for CI)
  --json FILE        Write a JSON report (for tools)
  --html FILE        Write one self-contained HTML page (for people): every check by the contract's
                     section, failures with their exchange and curl, filters; opens offline
  --grep PATTERN     Only checks whose name matches PATTERN
  --bail             Stop at the first failed check; the checks after it are counted as not run
  --request-timeout MS
                     Per request, to the answer's last byte (default 10000; --timeout is its earlier
                     name). A request past it fails its check, with the request and the time it took;
                     after 3 timeouts in a row nothing more is sent: the remaining checks fail at once
  --run-timeout S    The whole run (default 900 s): no check starts after it, those left are counted
                     as not run, and the run fails (exit 1)
  --max-response-bytes N
                     Per answer, after decompression (default 1048576, 1 MiB): a longer one is
                     read no further and fails its check, saying so
  --show-secrets     Show tokens in reports (Reproduce: curl lines); else Authorization: Bearer ***
  --control-token T  With --base-url, for a mock started with one (else USERS_API_KIT_CONTROL_TOKEN)
  -h, --help         This help

Exit codes: 0 every check passed, 1 a check failed (or, with --strict, was skipped for a lack),
2 the run could not start, 130 Ctrl-C stopped it (the reports asked for hold what ran).
Unreachable (2): nothing accepts a connection (refused, unknown host, no TCP connection within
--request-timeout). Broken (1): the target accepts connections but hangs, resets them, answers bytes that
are not HTTP, an HTML page or a redirect (never followed); every check fails saying which, and the
reports are written. A server that accepts the connection and never answers the first request is
broken, not unreachable; so is one whose answers are endless, oversized, compression bombs or JSON
nested over 64 levels. What a server sends is printed with its control characters escaped.`

/** `users-api-kit verify`: 0 all passed, 1 a check failed, 2 could not start. */
export async function runVerifyCommand(args: string[]): Promise<number> {
  const options = readCommandArgs('verify', VERIFY_USAGE, parseVerifyArgs, args)
  if (typeof options === 'number') return options
  return (await runVerify(options)).exitCode
}

export type VerifyOptions = Omit<ReturnType<typeof parseVerifyArgs>, 'help'>

/** A finished `verify`: its exit code, and the suite's outcome when the suite ran. */
export interface VerifyResult {
  exitCode: number
  outcome?: SuiteOutcome
}

/**
 * Resolves the target (unless given), runs the suite and prints the summary: 0, 1 or 2. `gate` hands
 * its target over here, so that it is never written to a file.
 */
export async function runVerify(options: VerifyOptions, given?: Target): Promise<VerifyResult> {
  // Before the target is read or called: without the runner, nothing else is worth a word.
  const missingRunner = await findVitestProblem()
  if (missingRunner !== undefined) {
    console.error(`users-api-kit verify: ${missingRunner}`)
    return { exitCode: 2 }
  }
  let outcome: SuiteOutcome
  let broken: string | undefined
  let target: Target
  try {
    const loadedSpec = await loadSpec(options.spec)
    target = given ?? (await resolveTarget(options, options.timeoutMs, options.maxResponseBytes))
    broken = await assertReachable(target, options.timeoutMs, options.maxResponseBytes)
    if (broken) console.error(`users-api-kit verify: ${escapeControlCharacters(broken)}`)
    console.log(`users-api-kit verify: running the contract suite against ${escapeControlCharacters(target.baseUrl)}`)
    outcome = await runSuite({ ...options, target, loadedSpec, keepResults: options.html !== undefined })
  } catch (error) {
    const message = isAppError(error) || error instanceof Error ? error.message : String(error)
    console.error(`users-api-kit verify: cannot run.\n${escapeControlCharacters(message, { multiline: true })}`)
    return { exitCode: 2 }
  }
  console.log(
    formatSummary(
      outcome,
      [options.junit, options.json, options.html].filter((file) => file !== undefined),
    ),
  )
  if (broken) console.log(`Note: ${escapeControlCharacters(broken)}`)
  const nothingRan = outcome.passed + outcome.failed === 0
  if (outcome.interrupted) {
    const ran = outcome.passed + outcome.failed + outcome.skipped
    const written = [options.junit, options.json, options.html].filter((file) => file !== undefined)
    console.error(
      `users-api-kit verify: interrupted (Ctrl-C): ${written.length > 0 ? `the reports hold the ${ran} checks that ran, marked interrupted: ${written.join(', ')}.` : 'no report was asked for, so none was written.'}`,
    )
  }
  if (nothingRan && !outcome.interrupted)
    console.error('users-api-kit verify: no check ran (see the skip reasons above), so nothing was verified.')
  const lacking = options.strict && outcome.lacks.size > 0
  if (lacking && !nothingRan) console.error(formatLacks(outcome.lacks))
  if (outcome.timedOut) console.error(formatRunTimeout(options.runTimeoutMs, outcome.notRun))
  // 130, as a shell reports a command Ctrl-C stopped: a run cut short is no verdict either way.
  const exitCode = outcome.interrupted
    ? 130
    : nothingRan
      ? 2
      : outcome.failed > 0 || lacking || outcome.timedOut
        ? 1
        : 0
  if (options.html === undefined) return { exitCode, outcome }
  const written = await writeHtml(options, { target, outcome, broken, exitCode })
  return { exitCode: written ? exitCode : 2, outcome }
}

/** Why a strict run fails for its skips: every lack of the target, with how many checks it kept from running. */
function formatLacks(lacks: ReadonlyMap<string, number>): string {
  const total = [...lacks.values()].reduce((sum, count) => sum + count, 0)
  return [
    `users-api-kit verify: strict: ${total} ${total === 1 ? 'check was' : 'checks were'} skipped for what the target lacks, so the run fails. The target lacks:`,
    ...[...lacks].map(
      ([reason, count]) => `  - ${escapeControlCharacters(reason)} (${count} ${count === 1 ? 'check' : 'checks'})`,
    ),
    'Give the target what it lacks (README.md, "Pointing the suite at your own backend"); verify --no-strict lets such skips pass, gate never does.',
  ].join('\n')
}

function formatRunTimeout(runTimeoutMs: number, notRun: number): string {
  return `users-api-kit verify: the run passed --run-timeout (${runTimeoutMs / 1000} s): ${notRun} ${notRun === 1 ? 'check' : 'checks'} did not run, so the run fails. A slow backend may need a longer --run-timeout.`
}

interface FinishedRun {
  target: Target
  outcome: SuiteOutcome
  broken?: string
  exitCode: number
}

/** Writes --html from the run's JSON results; false (and says why) when it cannot. */
async function writeHtml(options: VerifyOptions, { target, outcome, broken, exitCode }: FinishedRun): Promise<boolean> {
  try {
    if (!options.html || !outcome.results) throw new Error('the suite produced no results.')
    const skipped = [...outcome.skipReasons].map(([reason, count]) => `Skipped ${count}${describeSkip(reason)}`)
    const notRun = outcome.notRun > 0 ? [`${outcome.notRun} ${notRunReason(outcome)}`] : []
    const interrupted = outcome.interrupted
      ? [`Interrupted (Ctrl-C) ${outcome.interrupted.at}: this report holds the checks that ran before it.`]
      : []
    const lacks = options.strict && outcome.lacks.size > 0 ? [formatLacks(outcome.lacks)] : []
    const path = await writeHtmlReport({
      path: options.html,
      results: outcome.results,
      skipNotes: outcome.skipNotes,
      baseUrl: target.baseUrl,
      exitCode,
      notes: [...interrupted, ...(broken ? [broken] : []), ...lacks, ...skipped, ...notRun],
      secrets: options.showSecrets ? [] : listTargetTokens(target),
    })
    console.log(`HTML report written to ${path}`)
    return true
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    console.error(`users-api-kit verify: cannot write the HTML report ${options.html}: ${message}`)
    return false
  }
}

function parseVerifyArgs(args: string[], env: Record<string, string | undefined> = process.env) {
  const { values } = parseArgs({
    args,
    strict: true,
    allowNegative: true,
    options: {
      ...TARGET_OPTIONS,
      only: { type: 'string' },
      'read-only': { type: 'boolean' },
      strict: { type: 'boolean' },
      out: { type: 'string' },
      junit: { type: 'string' },
      json: { type: 'string' },
      html: { type: 'string' },
      grep: { type: 'string' },
      bail: { type: 'boolean' },
    },
  })
  const target = readTargetOptions(values)
  if (values.only !== undefined && values.only !== 'core')
    throw new Error(`--only takes "core" (got "${values.only}").`)
  return {
    ...target,
    layer: values.only === 'core' ? ('core' as const) : ('all' as const),
    readOnly: values['read-only'] ?? false,
    strict: values.strict ?? isCi(env),
    junit: reportPath(values.out, REPORT_FILES.verifyJunit, values.junit),
    json: reportPath(values.out, REPORT_FILES.verifyJson, values.json),
    html: reportPath(values.out, REPORT_FILES.verifyHtml, values.html),
    grep: values.grep,
    bail: values.bail ?? false,
  }
}

/** CI runners set CI (GitHub Actions, GitLab, CircleCI…: `true`); `CI=false` or `CI=0` turns it off again. */
function isCi(env: Record<string, string | undefined>): boolean {
  const value = env['CI']
  return value !== undefined && value !== '' && value !== 'false' && value !== '0'
}

function formatSummary(outcome: SuiteOutcome, reportFiles: string[]): string {
  const { passed, failed, skipped, notRun } = outcome
  // Ctrl-C before some files started: their checks were never collected, so they are counted as files.
  const filesNotStarted = outcome.interrupted?.filesNotStarted ?? 0
  const unstarted = filesNotStarted > 0 ? `; ${plural(filesNotStarted, 'file')} of checks not run` : ''
  // Under --bail the checks after the first failure are counted too: the totals are every check.
  const totals =
    notRun === 0
      ? `${plural(passed, 'check')} passed, ${failed} failed, ${skipped} skipped${unstarted}.`
      : `${plural(passed, 'check')} passed, ${failed} failed, ${skipped} skipped, ${notRun} not run (${plural(passed + failed + skipped + notRun, 'check')})${unstarted}.`
  const lines = ['', ...formatMostSkipped(outcome), `users-api-kit verify: ${totals}`]
  for (const [reason, count] of outcome.skipReasons) lines.push(`  skipped ${count}${describeSkip(reason)}`)
  if (notRun > 0) lines.push(`  ${notRun} ${notRunReason(outcome)}`)
  if (filesNotStarted > 0) lines.push(`  ${plural(filesNotStarted, 'file')} ${notRunReason(outcome)}`)
  // The failed rules first, each once with its first failure; then every failed check's report, and
  // the totals again under them, where a terminal leaves the reader.
  if (outcome.failedChecks.length > 0) {
    lines.push(
      '',
      ...formatFailures(outcome.failedChecks, reportFiles),
      `users-api-kit verify: ${totals} (failures above)`,
    )
  }
  return lines.join('\n')
}

/**
 * A run that skipped most of the suite for what the target lacks says so first: how many checks ran, how many
 * were skipped and for what, and that its passes say little. Its exit code stays what the totals give (docs/contract-suite.md).
 */
function formatMostSkipped({ passed, failed, skipped, notRun, lacks }: SuiteOutcome): string[] {
  const ran = passed + failed
  // Skips by choice (--only core, --grep, --read-only) leave a verdict on what was chosen: only lacks count.
  const lacking = [...lacks.values()].reduce((sum, count) => sum + count, 0)
  if (lacking <= ran || ran === 0) return []
  const reasons = [...lacks].sort((a, b) => b[1] - a[1])
  const shown = reasons.slice(0, 2).map(([reason, count]) => `${count}: ${reason}`)
  const more = reasons.length > 2 ? `; ${reasons.length - 2} more reasons below` : ''
  return [
    `users-api-kit verify: only ${ran} of ${passed + failed + skipped + notRun} checks ran, ${skipped} were skipped (${shown.join('; ')}${more}). This run is no verdict on the backend's conformance: give the target what the skipped checks need (README.md, "Pointing the suite at your own backend").`,
  ]
}

function notRunReason(outcome: SuiteOutcome): string {
  if (outcome.interrupted) return INTERRUPTED_REASON
  return outcome.timedOut ? RUN_TIMEOUT_REASON : NOT_RUN_REASON
}

/** `: reason`, or ` by choice: reason` for a skip the user chose. */
function describeSkip(reason: string): string {
  return `${isChosenSkip(reason) ? ' by choice' : ''}: ${withoutChoiceMark(reason)}`
}
