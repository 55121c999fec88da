import { access, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { escapeControlCharacters } from '../contract/escape-control-characters.js'
import { resolveTarget } from '../contract/resolve-target.js'
import { createScratchDirectory } from '../contract/scratch-directory.js'
import type { Target } from '../contract/target.js'
import { SCHEMATHESIS_VERSION } from '../fuzz/find-schemathesis.js'
import { groupByCheck } from '../fuzz/format-findings.js'
import { mergeJunitReports, readJunitTotals, renameTestsuites } from '../contract/merge-junit-reports.js'
import { runFuzz, type FuzzOutcome } from './fuzz-command.js'
import { runVerify } from './verify-command.js'
import { FUZZ_OPTIONS, readFuzzOptions, readTargetOptions, TARGET_OPTIONS } from './shared-options.js'
import { readCommandArgs } from './read-command-args.js'

export const GATE_USAGE = `users-api-kit gate — the contract suite and the fuzzer, for a backend's CI

Usage:
  users-api-kit gate --target target.json --junit out/
  users-api-kit gate --base-url http://127.0.0.1:4010    a running users-api-kit mock

  Runs \`verify\` (every check) and then \`fuzz\` (every Schemathesis check, stateful phase on) against
  the same target, writes one JUnit file holding both reports, and prints a one-screen summary.

  --junit PATH           A .xml file, or a directory that gets users-api-kit-gate.xml; verify's
                         HTML page (see verify --html), users-api-kit-verify.html, goes beside it
  --spec FILE            The OpenAPI document (default openapi/users.yaml)
  --max-examples N       Schemathesis test cases per operation and phase (default 100)
  --seed N               Schemathesis's seed
  --workers N            Concurrent Schemathesis workers
  --read-only            Nothing is written, by either
  --schemathesis PATH    The st executable (else SCHEMATHESIS_BIN, the kit's .venv, st on PATH)
  --timeout MS           Per request, to the answer's last byte, for both (default 10000)
  --max-response-bytes N Per answer, after decompression, for both (default 1048576, 1 MiB)
  --show-secrets         Tokens as they are in both reports (else Bearer *** and [Filtered])
  --control-token T      With --base-url, for a mock started with one (else USERS_API_KIT_CONTROL_TOKEN)
  -h, --help             This help

Disposable users: verify uses the first 6 (and deletes 2); fuzz the ones after them, or all of them
when there are no more. Exit codes: 0 both clean, 1 a check failed or fuzz found something, 2 either
could not run. A target that accepts no connection could not run (2); one that accepts connections
and then hangs, resets them, or answers non-HTTP bytes, HTML or redirects fails (1).`

/** verify's suite takes the first six disposable users (contract-tests/support/suite.ts, DISPOSABLE_SLOTS). */
const VERIFY_DISPOSABLE_USERS = 6

/** `users-api-kit gate`: verify + fuzz; 0 both clean, 1 a finding, 2 either could not run. */
export async function runGateCommand(args: string[]): Promise<number> {
  const options = readCommandArgs('gate', GATE_USAGE, parseGateArgs, args)
  if (typeof options === 'number') return options
  let target: Target
  try {
    target = await resolveTarget(options, options.timeoutMs, options.maxResponseBytes)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    console.error(`users-api-kit gate: cannot run.\n${escapeControlCharacters(message, { multiline: true })}`)
    return 2
  }
  // Holds verify's JUnit report only: the target (and its tokens) goes to verify in memory.
  const scratch = await createScratchDirectory('users-api-kit-gate-')
  const junitPath = options.junit && junitReportPath(options.junit)
  // The report folder gets verify's page for people too, beside the JUnit file.
  const htmlPath = junitPath && join(dirname(junitPath), 'users-api-kit-verify.html')
  try {
    // A page of an earlier run must not pass for this one's, should verify not get to write it.
    if (htmlPath) await rm(htmlPath, { force: true })
    const verifyReport = join(scratch.path, 'verify.xml')
    const verifyCode = await runVerify(
      { ...options, layer: 'all', junit: verifyReport, json: undefined, html: htmlPath, grep: undefined, bail: false },
      target,
    )
    const fuzzTarget = { ...target, disposable: disposableForFuzz(target) }
    const fuzz = await runFuzz({ ...options, checks: 'all', stateful: true }, fuzzTarget)
    const verifyXml = await readFile(verifyReport, 'utf8').catch(() => undefined)
    const verifySuites = verifyXml && renameTestsuites(verifyXml, (file) => `users-api-kit verify: ${file}`)
    const reports = [verifySuites, fuzz.junit].filter((report) => report !== undefined)
    if (junitPath) await writeCombinedReport(junitPath, reports)
    const exitCode = Math.max(verifyCode, fuzz.exitCode)
    const htmlWritten = htmlPath && (await exists(htmlPath)) ? htmlPath : undefined
    console.log(formatGateSummary({ exitCode, verifyCode, verifyXml, fuzz, junitPath, htmlPath: htmlWritten }))
    return exitCode
  } finally {
    await scratch.remove()
  }
}

function disposableForFuzz(target: Target): Target['disposable'] {
  const rest = target.disposable.slice(VERIFY_DISPOSABLE_USERS)
  return rest.length > 0 ? rest : target.disposable
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  )
}

/** --junit names a .xml file, or the folder that gets users-api-kit-gate.xml. */
function junitReportPath(junit: string): string {
  return junit.endsWith('.xml') ? resolve(junit) : resolve(junit, 'users-api-kit-gate.xml')
}

async function writeCombinedReport(path: string, reports: string[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, mergeJunitReports('users-api-kit gate', reports))
}

interface GateResults {
  exitCode: number
  verifyCode: number
  verifyXml?: string
  fuzz: FuzzOutcome
  junitPath?: string
  htmlPath?: string
}

function formatGateSummary({ exitCode, verifyCode, verifyXml, fuzz, junitPath, htmlPath }: GateResults): string {
  const verdict = ['PASSED', 'FAILED', 'COULD NOT RUN'][exitCode] ?? 'COULD NOT RUN'
  const lines = ['', '─'.repeat(72), `users-api-kit gate: ${verdict} (exit ${exitCode})`]
  if (verifyCode === 2 || verifyXml === undefined) lines.push('  verify  could not run (see above)')
  else {
    const totals = readJunitTotals(verifyXml)
    const failed = totals.failures + totals.errors
    const passed = totals.tests - failed - totals.skipped
    lines.push(
      `  verify  ${failed > 0 ? '✗' : '✓'} ${passed} checks passed, ${failed} failed, ${totals.skipped} skipped`,
    )
  }
  if (fuzz.exitCode === 2) lines.push('  fuzz    could not run (see above)')
  else if (fuzz.findings.length === 0)
    lines.push(`  fuzz    ✓ no findings (Schemathesis ${SCHEMATHESIS_VERSION}, every check)`)
  else {
    const byCheck = [...groupByCheck(fuzz.findings)].map(([check, group]) => `${check} ${group.length}`)
    lines.push(`  fuzz    ✗ ${fuzz.findings.length} findings: ${byCheck.join(', ')}`)
  }
  if (junitPath) lines.push(`  JUnit   ${junitPath}`)
  if (htmlPath) lines.push(`  HTML    ${htmlPath}`)
  lines.push('─'.repeat(72))
  return lines.join('\n')
}

function parseGateArgs(args: string[]) {
  const { values } = parseArgs({
    args,
    strict: true,
    options: { ...TARGET_OPTIONS, ...FUZZ_OPTIONS },
  })
  return { ...readTargetOptions(values), ...readFuzzOptions(values) }
}
