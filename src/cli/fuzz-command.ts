import { accessSync, constants, existsSync } from 'node:fs'
import { mkdir, readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { AppError } from '../errors.js'
import { writeReportFile } from '../files/write-report-file.js'
import { escapeControlCharacters } from '../text/escape-control-characters.js'
import { assertReachable, resolveTarget } from '../contract/target/resolve-target.js'
import { createScratchDirectory, type ScratchDirectory } from '../files/scratch-directory.js'
import { ACTOR_NAMES, type ActorName, type Target } from '../contract/target/target.js'
import { findSchemathesis, installHint } from '../fuzz/find-schemathesis.js'
import { SCHEMATHESIS_VERSION } from '../fuzz/schemathesis-places.js'
import { formatFindings } from '../fuzz/format-findings.js'
import { CONFIG_FILE, HOOKS_FILE, PACKAGE_ROOT, SETUP_SCRIPT } from '../fuzz/fuzz-files.js'
import { readFindings, type Finding } from '../fuzz/read-findings.js'
import { startResponseGuard, type ResponseGuard } from '../fuzz/response-guard.js'
import { readSchemathesisVersion, runSchemathesis } from '../fuzz/run-schemathesis.js'
import { buildSchemathesisCommand, type FuzzPlan } from '../fuzz/schemathesis-command.js'
import { REPORT_FILES, reportPath } from './report-files.js'
import { mergeJunitReports, renameTestsuites } from '../contract/report/merge-junit-reports.js'
import { DEFAULT_SPEC_PATH, loadSpec } from '../spec/load-spec.js'
import { DEFAULT_MAX_RESPONSE_BYTES } from '../http/response-limits.js'
import {
  DEFAULT_TIMEOUT_MS,
  FUZZ_OPTIONS,
  readFuzzOptions,
  readTargetOptions,
  TARGET_OPTIONS,
} from './shared-options.js'
import { readCommandArgs } from './read-command-args.js'

export const FUZZ_USAGE = `users-api-kit fuzz — property-based fuzzing with Schemathesis ${SCHEMATHESIS_VERSION}

Usage:
  users-api-kit fuzz --target target.json        any deployment (see schemas/target.schema.json)
  users-api-kit fuzz --base-url http://127.0.0.1:4010   a running users-api-kit mock
  users-api-kit fuzz … -- [st run options]       options after -- go to Schemathesis's st run as
                                                 they are, after the kit's own (the same option there wins)

  --as ROLES             Whose token is sent: owner (default), or a comma-separated list of the
                         target's actors (owner,admin,viewer,bot,outsider): one Schemathesis run each
  --spec FILE            The OpenAPI document (default openapi/users.yaml)
  --max-examples N       Test cases per operation and phase (Schemathesis's default: 100)
  --seed N               Schemathesis's seed, to repeat a run
  --checks LIST          all (default) or a comma-separated list of Schemathesis checks
  --stateful             The stateful phase: call chains through the document's links (default)
  --no-stateful          Skip it
  --workers N            Concurrent Schemathesis workers (default 1)
  --read-only            Send no POST, PUT, PATCH or DELETE at all
  --out DIR              Write the JUnit report into DIR as users-api-kit-fuzz.xml (made if missing,
                         never cleaned up)
  --junit FILE           Write a JUnit XML report (for CI)
  --schemathesis PATH    The st executable (else SCHEMATHESIS_BIN, the kit's .venv, st on PATH)
  --request-timeout MS   Per request, to the answer's last byte (default 10000; or --timeout)
  --max-response-bytes N Per answer, after decompression (default 1048576, 1 MiB)
  --show-secrets         Tokens as they are in Schemathesis's output and reports (else [Filtered])
  --control-token T      With --base-url, for a mock started with one (else USERS_API_KIT_CONTROL_TOKEN)
  -h, --help             This help

Safety: the token of the actor fuzzed as is sent (the owner's by default); writes reach only the
target's disposable users, whoever sends them (see
src/fuzz/schemathesis-hooks.py). Redirects are never followed: a 3xx is a finding. Schemathesis
reaches the target through the kit's guard, which holds every answer to --request-timeout and
--max-response-bytes and refuses JSON nested over 64 levels: each refusal is an error that says so.
Schemathesis's output is passed through as plain text, its control characters escaped.
Exit codes: 0 no findings, 1 findings, 2 could not run. Could not run (2) includes a target that
accepts no connection (refused, unknown host, no TCP connection within --request-timeout); one that accepts
connections and then hangs, resets them or answers something other than HTTP is fuzzed, and its
errors are findings (1).`

export interface FuzzOptions {
  targetFile?: string
  baseUrl?: string
  controlToken?: string
  /** Per request, to the answer's last byte (default 10 s): the guard's deadline. */
  timeoutMs?: number
  /** Per answer, after decompression (default 1 MiB). */
  maxResponseBytes?: number
  /** Tokens unmasked in Schemathesis's output and reports. */
  showSecrets?: boolean
  spec?: string
  maxExamples?: number
  seed?: number
  checks: string
  stateful: boolean
  workers?: number
  readOnly: boolean
  junit?: string
  schemathesis?: string
  /** The actors whose tokens are sent, one Schemathesis run each (`--as`); default the owner. */
  as?: ActorName[]
  /** What came after `--`: given to `st run` as it is. */
  extraArgs?: string[]
  /**
   * Where the kit's copy of Schemathesis's JUnit report will be kept: said where Schemathesis names its
   * own reports, which are temporary (removed when the run ends).
   */
  keptJunit?: string
}

export interface FuzzOutcome {
  exitCode: 0 | 1 | 2
  findings: Finding[]
  /** Schemathesis's JUnit report, its suite named "users-api-kit fuzz"; absent when it could not run. */
  junit?: string
}

/** `users-api-kit fuzz`: 0 no findings, 1 findings, 2 could not run. */
export async function runFuzzCommand(args: string[]): Promise<number> {
  const options = readCommandArgs('fuzz', FUZZ_USAGE, parseFuzzArgs, args)
  if (typeof options === 'number') return options
  const junit = reportPath(options.out, REPORT_FILES.fuzzJunit, options.junit)
  const outcome = await runFuzz({ ...options, keptJunit: junit && resolve(junit) })
  if (outcome.junit !== undefined && junit) {
    await writeReportFile(junit, outcome.junit)
    console.log(`JUnit report: ${junit}`)
  }
  return outcome.exitCode
}

/**
 * Resolves the target, finds Schemathesis, runs it through the guard (response-guard.ts), and prints
 * the kit's summary. Used by `gate` too.
 */
export async function runFuzz(options: FuzzOptions, target?: Target): Promise<FuzzOutcome> {
  let prepared: Awaited<ReturnType<typeof prepareRun>>
  try {
    prepared = await prepareRun(options, target)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    console.error(`users-api-kit fuzz: cannot run.\n${escapeControlCharacters(message, { multiline: true })}`)
    return { exitCode: 2, findings: [] }
  }
  const scratch = await createScratchDirectory('users-api-kit-fuzz-')
  const guard = await startResponseGuard({
    targetBaseUrl: prepared.baseUrl,
    timeoutMs: prepared.timeoutMs,
    maxResponseBytes: prepared.maxResponseBytes,
  })
  try {
    const runs: RoleRun[] = []
    for (const [index, identity] of prepared.identities.entries()) {
      if (prepared.identities.length > 1) {
        console.log(`\nusers-api-kit fuzz: as ${identity.role} (${index + 1} of ${prepared.identities.length})`)
      }
      const run = await fuzzAs(identity, prepared, { guard, scratch, keptJunit: options.keptJunit })
      if (run === undefined) return { exitCode: 2, findings: [] }
      runs.push(run)
    }
    for (const run of runs) {
      console.log(formatFindings(run.findings, prepared.identities.length > 1 ? run.role : undefined))
      if (run.status === 1 && run.findings.length === 0)
        console.error(
          'users-api-kit fuzz: Schemathesis failed the run for a reason the kit could not read (see above).',
        )
    }
    if (prepared.broken) console.log(`Note: ${escapeControlCharacters(prepared.broken)}`)
    const findings = runs.flatMap((run) => run.findings)
    return {
      exitCode: runs.every((run) => run.status === 0) && findings.length === 0 ? 0 : 1,
      findings,
      junit: joinReports(runs),
    }
  } finally {
    await guard.close()
    await scratch.remove()
  }
}

/**
 * One Schemathesis run with one actor's token, through the guard, its reports in a folder of its own
 * under the scratch directory; undefined when it did not finish (said why).
 */
async function fuzzAs(
  identity: { role: ActorName; token: string },
  plan: Omit<FuzzPlan, 'token' | 'reportDir'>,
  run: { guard: ResponseGuard; scratch: ScratchDirectory; keptJunit: string | undefined },
): Promise<RoleRun | undefined> {
  const reportDir = join(run.scratch.path, identity.role)
  await mkdir(reportDir)
  const command = buildSchemathesisCommand({ ...plan, baseUrl: run.guard.baseUrl, token: identity.token, reportDir })
  // Schemathesis names its reports, which go with the scratch directory: never a path to look at.
  const rewrite = (line: string) => nameKeptReports(run.guard.toTargetUrls(line), run.scratch.path, run.keptJunit)
  const status = await runSchemathesis(command, run.scratch.path, rewrite, run.scratch.track)
  const reports = await readReports(command.junitPath, command.ndjsonPath)
  if ((status !== 0 && status !== 1) || reports === undefined) {
    console.error(`users-api-kit fuzz: Schemathesis stopped with exit code ${status} before it finished (see above).`)
    return undefined
  }
  // The curl lines name the target, not the guard; a control character the target sent stays inert.
  const junit = sanitizeReport(run.guard.toTargetUrls(reports.junit))
  return { role: identity.role, status, junit, findings: readFindings({ junit, ndjson: reports.ndjson }) }
}

/** One Schemathesis run, with the token of one actor. */
interface RoleRun {
  role: ActorName
  status: number
  junit: string
  findings: Finding[]
}

/** One JUnit report: its suite named "users-api-kit fuzz", or, one run an actor, "users-api-kit fuzz (as admin)". */
function joinReports(runs: RoleRun[]): string {
  const [only] = runs
  if (runs.length === 1 && only) return renameTestsuites(only.junit, () => 'users-api-kit fuzz')
  return mergeJunitReports(
    'users-api-kit fuzz',
    runs.map((run) => renameTestsuites(run.junit, () => `users-api-kit fuzz (as ${run.role})`)),
  )
}

/**
 * A JUnit report with every control character the target sent written out (`\x1b`), whether raw or as a
 * character reference: XML 1.0 allows none of them, and a CI page would pass them to a terminal.
 */
function sanitizeReport(xml: string): string {
  const references = xml.replace(/&#(x[0-9a-f]+|\d+);/gi, (reference, code: string) => {
    const value = code.startsWith('x') || code.startsWith('X') ? parseInt(code.slice(1), 16) : Number(code)
    const character = String.fromCodePoint(value)
    const escaped = escapeControlCharacters(character, { multiline: true })
    return escaped === character ? reference : escaped
  })
  return escapeControlCharacters(references.replaceAll('\r\n', '\n'), { multiline: true })
}

/**
 * Schemathesis's report lines (`  - JUnit: /tmp/users-api-kit-fuzz-…/schemathesis-junit.xml`) name files
 * the run removes: the JUnit line names the kit's copy instead, when one is kept, and the others say
 * they are gone.
 */
function nameKeptReports(line: string, scratchPath: string, keptJunit: string | undefined): string {
  if (!line.includes(scratchPath)) return line
  const report = /^(\s*- )(\w+): /.exec(line)
  if (report?.[2] === 'JUnit' && keptJunit) return `${report[1]}JUnit: ${keptJunit} (the kit's copy)`
  return `${report?.[1] ?? ''}${report?.[2] ?? 'A report'}: not kept (temporary, removed when the run ends)`
}

/**
 * The Schemathesis to run: found (find-schemathesis.ts) and a 4.x. `gate` asks before it sends anything.
 *
 * @throws AppError('VALIDATION_FAILED') saying how to install it.
 */
export async function locateSchemathesis(option: string | undefined): Promise<{ path: string; version: string }> {
  const isClone = existsSync(SETUP_SCRIPT)
  const location = findSchemathesis({ option, env: process.env, packageRoot: PACKAGE_ROOT, isClone, isExecutable })
  const version = await readSchemathesisVersion(location.path)
  if (!version?.startsWith('4.')) {
    throw new AppError(
      'VALIDATION_FAILED',
      `${location.path} (${location.source}) is Schemathesis ${version ?? '(unknown version)'}; the kit needs 4.x.\n${installHint({ isClone })}`,
    )
  }
  return { path: location.path, version }
}

async function prepareRun(options: FuzzOptions, given?: Target) {
  const location = await locateSchemathesis(options.schemathesis)
  if (location.version !== SCHEMATHESIS_VERSION)
    console.error(
      `users-api-kit fuzz: Schemathesis ${location.version}; the kit is tested with ${SCHEMATHESIS_VERSION}.`,
    )
  const spec = resolve(options.spec ?? DEFAULT_SPEC_PATH)
  await loadSpec(spec)
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES
  const target = given ?? (await resolveTarget(options, timeoutMs, maxResponseBytes))
  const broken = await assertReachable(target, timeoutMs, maxResponseBytes)
  if (broken) console.error(`users-api-kit fuzz: ${escapeControlCharacters(broken)}`)
  const identities = (options.as ?? ['owner']).map((role) => {
    const token = target.actors[role]?.token
    if (!token) throw new AppError('VALIDATION_FAILED', `The target has no ${role}: fuzz --as ${role} sends its token.`)
    return { role, token }
  })
  if (!options.readOnly && target.disposable.length === 0) {
    throw new AppError(
      'VALIDATION_FAILED',
      'The target lists no disposable users, the only ones fuzz may change or delete. Add some, or run with --read-only.',
    )
  }
  return {
    ...options,
    broken,
    schemathesis: location.path,
    spec,
    baseUrl: target.baseUrl,
    identities,
    disposable: target.disposable,
    timeoutMs,
    maxResponseBytes,
    hooksFile: HOOKS_FILE,
    configFile: CONFIG_FILE,
  }
}

async function readReports(junitPath: string, ndjsonPath: string) {
  try {
    return { junit: await readFile(junitPath, 'utf8'), ndjson: await readFile(ndjsonPath, 'utf8') }
  } catch {
    return undefined
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

function parseFuzzArgs(args: string[]) {
  // What follows `--` is Schemathesis's, untouched: parseArgs never sees it.
  const end = args.indexOf('--')
  const { values } = parseArgs({
    args: end === -1 ? args : args.slice(0, end),
    strict: true,
    allowNegative: true,
    options: {
      ...TARGET_OPTIONS,
      ...FUZZ_OPTIONS,
      checks: { type: 'string' },
      stateful: { type: 'boolean' },
      as: { type: 'string' },
    },
  })
  return {
    ...readTargetOptions(values),
    ...readFuzzOptions(values),
    checks: values.checks ?? 'all',
    stateful: values.stateful ?? true,
    as: parseActors(values.as),
    extraArgs: end === -1 ? [] : args.slice(end + 1),
  } satisfies FuzzOptions & { help: boolean }
}

/**
 * `--as owner,viewer` → ['owner', 'viewer']; none → the owner.
 *
 * @throws Error naming the actors there are, for a name that is none of them.
 */
export function parseActors(list: string | undefined): ActorName[] {
  if (list === undefined) return ['owner']
  const names = [...new Set(list.split(',').map((name) => name.trim()))]
  const unknown = names.filter((name) => !(ACTOR_NAMES as readonly string[]).includes(name))
  if (unknown.length > 0 || names.length === 0) {
    throw new Error(
      `--as takes the target's actors, comma-separated (${ACTOR_NAMES.join(', ')}), not "${unknown.join(',') || list}".`,
    )
  }
  return names as ActorName[]
}
