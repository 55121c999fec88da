import { access, readFile, rm } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { DISPOSABLE_USERS_NEEDED } from '../target/disposable-slots.js'
import { escapeControlCharacters } from '../text/escape-control-characters.js'
import { findVitestProblem } from '../contract/suite/load-vitest.js'
import { resolveTarget } from '../contract/target/resolve-target.js'
import type { SuiteOutcome } from '../contract/run/run-suite.js'
import type { Target } from '../contract/target/target.js'
import { SCHEMATHESIS_VERSION } from '../fuzz/schemathesis-places.js'
import { groupByCheck } from '../fuzz/format-findings.js'
import { mergeJunitReports, renameTestsuites } from '../contract/report/merge-junit-reports.js'
import { locateSchemathesis, runFuzz, type FuzzOutcome } from './fuzz-command.js'
import { FUZZ_DISPOSABLE_USERS, gateDisposableUsers, listMissingPrerequisites } from './gate-prerequisites.js'
import { REPORT_FILES } from './report-files.js'
import { runVerify } from './verify-command.js'
import { writeReportFile } from '../files/write-report-file.js'
import { FUZZ_OPTIONS, readFuzzOptions, readTargetOptions, TARGET_OPTIONS } from './shared-options.js'
import { readCommandArgs } from './read-command-args.js'
import { plural } from '../text/plural.js'

export const GATE_USAGE = `users-api-kit gate — the contract suite and the fuzzer, for a backend's CI

Usage:
  users-api-kit gate --target target.json --out out/
  users-api-kit gate --base-url http://127.0.0.1:4010    a running users-api-kit mock

  Runs \`verify\` (every check, strict) and then \`fuzz\` (every Schemathesis check of the users API, stateful phase on)
  against the same target, writes one JUnit file holding both reports, and prints a one-screen summary.
  Before it sends a single request it checks that the target is complete (every actor, enough
  disposable users, a webhook receiver or "webhooks": false) and that Schemathesis and vitest are
  installed, and lists everything missing.

  --out DIR              The reports' folder (made if missing, never cleaned up): users-api-kit-gate.xml
                         (JUnit, both) and verify's HTML page (see verify --html), users-api-kit-verify.html
  --junit PATH           A .xml file, or a directory that gets users-api-kit-gate.xml; verify's
                         HTML page goes beside it unless --out names the folder
  --spec FILE            The OpenAPI document (default openapi/users.yaml)
  --max-examples N       Schemathesis test cases per operation and phase (default 100)
  --seed N               Schemathesis's seed
  --workers N            Concurrent Schemathesis workers
  --read-only            Nothing is written, by either (no disposable users needed)
  --schemathesis PATH    The st executable (else SCHEMATHESIS_BIN, the kit's .venv, st on PATH)
  --request-timeout MS   Per request, to the answer's last byte, for both (default 10000; or --timeout)
  --run-timeout S        verify's whole run (default 900): no check starts after it, and it fails
  --max-response-bytes N Per answer, after decompression, for both (default 1048576, 1 MiB)
  --show-secrets         Tokens as they are in both reports (else Bearer *** and [Filtered])
  --control-token T      With --base-url, for a mock started with one (else USERS_API_KIT_CONTROL_TOKEN)
  -h, --help             This help

Disposable users: ${gateDisposableUsers(false)}, fresh each run; verify uses the first ${DISPOSABLE_USERS_NEEDED} (and deletes 5), fuzz the
${FUZZ_DISPOSABLE_USERS} after them. A gate is strict: a check skipped for what the target lacks fails it; skips you
chose (--read-only, "webhooks": false) do not. Exit codes: 0 both clean, 1 a check failed or was
skipped for a lack, or fuzz found something, 2 either could not run (a prerequisite missing
included). A target that accepts no connection could not run (2); one that accepts connections and
then hangs, resets them, or answers non-HTTP bytes, HTML or redirects fails (1).`

/** `users-api-kit gate`: verify + fuzz; 0 both clean, 1 a finding, 2 either could not run. */
export async function runGateCommand(args: string[]): Promise<number> {
  const options = readCommandArgs('gate', GATE_USAGE, parseGateArgs, args)
  if (typeof options === 'number') return options
  const target = await prepareGate(options)
  if (Array.isArray(target)) {
    const items = target.map(
      (item) => `  - ${escapeControlCharacters(item, { multiline: true }).replaceAll('\n', '\n    ')}`,
    )
    console.error(['users-api-kit gate: cannot run, and nothing was sent to the target:', ...items].join('\n'))
    console.log(formatGateSummary({ exitCode: 2, missing: target.length }))
    return 2
  }
  const { junitPath, htmlPath } = reportPaths(options)
  // Reports of an earlier run must not pass for this one's, should this one not get to write them.
  for (const path of [junitPath, htmlPath]) if (path) await rm(path, { force: true })
  // verify writes its JUnit report where the gate's goes (it says so), and the gate then adds fuzz's.
  const verify = await runVerify(
    {
      ...options,
      layer: 'all',
      strict: true,
      junit: junitPath,
      json: undefined,
      html: htmlPath,
      grep: undefined,
      bail: false,
    },
    target,
  )
  const verifyXml = junitPath && (await readFile(junitPath, 'utf8').catch(() => undefined))
  const fuzzTarget = { ...target, disposable: target.disposable.slice(DISPOSABLE_USERS_NEEDED) }
  const fuzz = await runFuzz({ ...options, checks: 'all', stateful: true, keptJunit: junitPath }, fuzzTarget)
  const verifySuites = verifyXml && renameTestsuites(verifyXml, (file) => `users-api-kit verify: ${file}`)
  const reports = [verifySuites, fuzz.junit].filter((report): report is string => Boolean(report))
  if (junitPath) await writeCombinedReport(junitPath, reports)
  const exitCode = Math.max(verify.exitCode, fuzz.exitCode)
  const htmlWritten = htmlPath && (await exists(htmlPath)) ? htmlPath : undefined
  console.log(
    formatGateSummary({
      exitCode,
      verifyCode: verify.exitCode,
      verify: verify.outcome,
      fuzz,
      junitPath,
      htmlPath: htmlWritten,
    }),
  )
  return exitCode
}

type GateOptions = ReturnType<typeof parseGateArgs>

/**
 * The target, once everything the run needs is there; else every missing item, each saying what to do.
 * Nothing is sent to the target's API before this answers (a mock's target comes from its control route).
 */
async function prepareGate(options: GateOptions): Promise<Target | string[]> {
  const missing: string[] = []
  const vitestProblem = await findVitestProblem()
  if (vitestProblem !== undefined) missing.push(vitestProblem)
  await locateSchemathesis(options.schemathesis).catch((error: unknown) => missing.push(messageOf(error)))
  const disposable = gateDisposableUsers(options.readOnly)
  const target = await resolveTarget(
    { ...options, disposable: disposable > 0 ? disposable : undefined },
    options.timeoutMs,
    options.maxResponseBytes,
  ).catch((error: unknown) => {
    missing.push(messageOf(error))
    return undefined
  })
  if (target) missing.unshift(...listMissingPrerequisites(target, options))
  return target && missing.length === 0 ? target : missing
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** --out names the folder; --junit the JUnit file (or its folder), beside which the HTML page goes unless --out is given. */
function reportPaths(options: GateOptions): { junitPath?: string; htmlPath?: string } {
  const junitPath = options.junit
    ? junitReportPath(options.junit)
    : options.out && resolve(options.out, REPORT_FILES.gateJunit)
  const folder = options.out ? resolve(options.out) : junitPath && dirname(junitPath)
  return { junitPath, htmlPath: folder && join(folder, REPORT_FILES.verifyHtml) }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  )
}

/** --junit names a .xml file, or the folder that gets users-api-kit-gate.xml. */
function junitReportPath(junit: string): string {
  return junit.endsWith('.xml') ? resolve(junit) : resolve(junit, REPORT_FILES.gateJunit)
}

async function writeCombinedReport(path: string, reports: string[]): Promise<void> {
  await writeReportFile(path, mergeJunitReports('users-api-kit gate', reports))
}

interface GateResults {
  exitCode: number
  /** Prerequisites missing: neither ran. */
  missing?: number
  verifyCode?: number
  verify?: SuiteOutcome
  fuzz?: FuzzOutcome
  junitPath?: string
  htmlPath?: string
}

function formatGateSummary(results: GateResults): string {
  const { exitCode, missing, verifyCode, verify, fuzz, junitPath, htmlPath } = results
  const verdict = ['PASSED', 'FAILED', 'COULD NOT RUN'][exitCode] ?? 'COULD NOT RUN'
  const lines = ['', '─'.repeat(72), `users-api-kit gate: ${verdict} (exit ${exitCode})`]
  if (missing !== undefined) lines.push(`  ${plural(missing, 'prerequisite')} missing (see above): nothing ran`)
  else lines.push(...formatVerifyLines(verifyCode, verify), formatFuzzLine(fuzz))
  if (junitPath) lines.push(`  JUnit   ${junitPath}`)
  if (htmlPath) lines.push(`  HTML    ${htmlPath}`)
  lines.push('─'.repeat(72))
  return lines.join('\n')
}

function formatVerifyLines(code: number | undefined, outcome: SuiteOutcome | undefined): string[] {
  if (code === 2 || outcome === undefined) return ['  verify  could not run (see above)']
  const { passed, failed, skipped, lacks } = outcome
  const totals = `${code === 0 ? '✓' : '✗'} ${plural(passed, 'check')} passed, ${failed} failed, ${skipped} skipped`
  // The gate is strict: what the target lacked is why its skips failed it.
  const lacking = [...lacks].map(([reason, count]) => `          lacks: ${escapeControlCharacters(reason)} (${count})`)
  return [`  verify  ${totals}`, ...lacking]
}

function formatFuzzLine(fuzz: FuzzOutcome | undefined): string {
  if (fuzz === undefined || fuzz.exitCode === 2) return '  fuzz    could not run (see above)'
  if (fuzz.findings.length === 0)
    return `  fuzz    ✓ no findings (Schemathesis ${SCHEMATHESIS_VERSION}, every check of the users API)`
  const byCheck = [...groupByCheck(fuzz.findings)].map(([check, group]) => `${check} ${group.length}`)
  return `  fuzz    ✗ ${plural(fuzz.findings.length, 'finding')}: ${byCheck.join(', ')}`
}

function parseGateArgs(args: string[]) {
  const { values } = parseArgs({
    args,
    strict: true,
    options: { ...TARGET_OPTIONS, ...FUZZ_OPTIONS },
  })
  return { ...readTargetOptions(values), ...readFuzzOptions(values) }
}
