/**
 * `npm run fuzz:deep`: the hardening run of the fuzzer, too slow for every CI run (10 to 20 minutes). It
 * starts a mock in this process with plenty of disposable users, runs the Schemathesis command of
 * `users-api-kit fuzz` (every check, every phase with the stateful one, the kit's hooks and configuration)
 * until the fuzzing phase alone has --max-examples (1,000) distinct generated cases of every operation and
 * the stateful phase as many scenarios, and prints and writes its figures: cases per operation and phase,
 * requests, phases, duration, findings. Exit codes: 0 nothing found, 1 findings (or an error, or a user
 * outside the disposable pool changed), 2 could not run.
 *
 * Run: npm run fuzz:deep -- --seed 7   (= npm run build && npm run setup:fuzz && tsx scripts/fuzz-deep.ts)
 * Writes to out/fuzz-deep/: figures.json, figures.md and Schemathesis's JUnit, NDJSON and JSON reports
 * (those of extra runs in fuzzing-N/ and stateful-N/). docs/fuzz-deep.md explains the figures and choices:
 * - `--generation-unique-inputs`: a draw that repeats an input already sent is neither sent nor counted;
 * - operations whose draws repeat often draw more (DRAWS_PER_CASE), to reach the target in distinct cases;
 * - Hypothesis may end a phase early on an API whose state changes (Schemathesis counts that a success):
 *   fuzzing-only runs of the operations concerned and stateful-only runs, each with the next seed, make up
 *   the difference (at most FUZZING_ROUNDS and STATEFUL_ROUNDS).
 * The kit's pieces are used directly (buildSchemathesisCommand, runSchemathesis, readFindings) rather than
 * runFuzz, which deletes the NDJSON events that the per-operation counts come from. */
import { createReadStream } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import { parseIntegerOption } from '../src/cli/parse-integer-option.js'
import { formatFindings } from '../src/fuzz/format-findings.js'
import { CONFIG_FILE, HOOKS_FILE, PACKAGE_ROOT } from '../src/fuzz/fuzz-files.js'
import { readFindings, type Finding } from '../src/fuzz/read-findings.js'
import { readSchemathesisVersion, runSchemathesis } from '../src/fuzz/run-schemathesis.js'
import { buildSchemathesisCommand, PHASES } from '../src/fuzz/schemathesis-command.js'
import { DEFAULT_SPEC_PATH, loadSpec } from '../src/spec/load-spec.js'
import { listOperations } from '../src/spec/operations.js'
import { startMock, type RunningMock } from '../src/server/start-mock.js'
import { setUpSchemathesis } from './setup-fuzz.js'

const USAGE = `npm run fuzz:deep -- [options]

  --max-examples N   Distinct generated cases wanted per operation, and stateful scenarios (default 1000)
  --seed N           Schemathesis's seed (default: Schemathesis picks one; the figures say which)
  --workers N        Concurrent Schemathesis workers (default 1: see docs/fuzz-deep.md before raising it)
  --out DIR          Where the reports and figures go (default out/fuzz-deep)
  -h, --help         This help`

/**
 * Disposable users for the run's writes. The hooks keep the last as the identity of id-less writes and
 * split the rest between PATCH and DELETE targets; each successful DELETE uses one up (later DELETEs of
 * it answer 404), so a long run needs many for DELETE to keep reaching live users.
 */
const DISPOSABLE_USERS = 401

/**
 * Draws per wanted distinct case, by operationId (1 when absent). With --generation-unique-inputs a
 * draw that repeats an input is skipped yet counts toward Schemathesis's --max-examples. Measured with
 * Schemathesis 4.32.5, 1,000 draws: GET /api/users 433 distinct, GET /api/users/{id} 256 (ids come from
 * those that responses showed, about 130), PATCH /api/users/{id} 749, GET /api/users/me 388 and PATCH 495 (their
 * only input is the Authorization header, and PATCH's body, refused with 405), DELETE /api/users/{id} 1,000.
 */
const DRAWS_PER_CASE: Record<string, number> = {
  listUsers: 4,
  getUser: 6,
  updateUser: 2,
  deleteUser: 1.5,
  getCurrentUser: 6,
  updateCurrentUser: 3,
  deleteCurrentUser: 3,
}

/**
 * Operations fuzzed without the ids that responses showed. Schemathesis forgets an id once a DELETE of
 * it succeeds or finds nothing, so the ids that DELETE /api/users/{id} draws change while Hypothesis runs;
 * Hypothesis then stops with "inconsistent data generation" (FlakyStrategyDefinition), which Schemathesis
 * counts a success: its fuzzing phase ended after 13 cases, twice. The hooks send every DELETE to a
 * disposable user anyway, so the drawn id matters little.
 */
const FUZZING_WITHOUT_RESPONSE_IDS = ['deleteUser']

/** At most this many fuzzing-only runs of the operations whose fuzzing phase Hypothesis ended early. */
const FUZZING_ROUNDS = 3

/**
 * The main run plus at most this many stateful-only runs, until the stateful scenarios reach the target.
 * In the deep runs measured, a stateful phase usually ended after 13 to 478 scenarios (seconds to a minute
 * each): 30 runs leave a margin.
 */
const STATEFUL_ROUNDS = 30

type Phase = (typeof PHASES)[number]

interface Options {
  maxExamples: number
  /** Digits: Schemathesis's seeds are 128-bit, past what a JavaScript number holds exactly. */
  seed?: string
  workers: number
  out: string
}

interface OperationFigures {
  /** `GET /api/users`. */
  operation: string
  /** Distinct cases Schemathesis generated and sent, by phase (stateful: the steps that called it). */
  cases: Record<Phase, number>
  total: number
  /** The responses to those cases, by status. */
  statuses: Record<string, number>
}

/** The main run (every phase), or one of the runs that make up for a phase that ended early. */
type RunKind = 'main' | 'fuzzing' | 'stateful'

/** What one Schemathesis run did, from its reports. */
interface RunFigures {
  kind: RunKind
  /** The operations it was limited to (a fuzzing-only run); none for the others. */
  operationIds: string[]
  directory: string
  exitCode: number
  seconds: number
  schemathesisCommand: string
  seed: string
  phases: Array<{ name: string; status: string; seconds: number }>
  operations: Map<string, OperationFigures>
  statefulScenarios: number
  /** Schemathesis's own count: every test case, the follow-up requests of checks included. */
  generated: number
  /** Requests a check sent after a generated case (use_after_free's GET after a DELETE, ignored_auth, …). */
  followUps: number
  requests: number
  findings: Finding[]
  errors: string[]
}

/** What figures.json holds. */
interface DeepFigures {
  command: string
  date: string
  schemathesisVersion: string
  maxExamples: number
  workers: number
  seconds: number
  runs: Array<Omit<RunFigures, 'operations' | 'findings' | 'errors'>>
  operations: OperationFigures[]
  statefulScenarios: number
  generated: number
  followUps: number
  requests: number
  findings: number
  errors: string[]
  /** Users outside the disposable pool whose record changed: the hooks' guarantee, 0. */
  protectedUsersChanged: number
  /** What fell short of --max-examples. */
  shortfalls: string[]
}

const options = readOptions(process.argv.slice(2))
if (options === 'help') console.log(USAGE)
else process.exitCode = options === undefined ? 2 : await runDeepFuzz(options).catch(couldNotRun)

function couldNotRun(error: unknown): 2 {
  console.error(`fuzz:deep: cannot run.\n${error instanceof Error ? error.message : String(error)}`)
  return 2
}

function readOptions(args: string[]): Options | 'help' | undefined {
  try {
    const { values } = parseArgs({
      args,
      strict: true,
      options: {
        'max-examples': { type: 'string' },
        seed: { type: 'string' },
        workers: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    })
    if (values.help) return 'help'
    if (values.seed !== undefined && !/^\d+$/.test(values.seed))
      throw new Error(`--seed must be a whole number (got "${values.seed}").`)
    return {
      maxExamples: parseIntegerOption('--max-examples', values['max-examples'], 1) ?? 1000,
      seed: values.seed,
      workers: parseIntegerOption('--workers', values.workers, 1, 64) ?? 1,
      out: resolve(values.out ?? join(PACKAGE_ROOT, 'out', 'fuzz-deep')),
    }
  } catch (error) {
    console.error(`fuzz:deep: ${(error as Error).message}\n\n${USAGE}`)
    return undefined
  }
}

async function runDeepFuzz(options: Options): Promise<number> {
  if (options.workers > 1) console.error('fuzz:deep: --workers > 1 on Python 3.11 can fail cases (docs/fuzz-deep.md).')
  const schemathesis = await setUpSchemathesis()
  const version = (await readSchemathesisVersion(schemathesis)) ?? 'unknown'
  const operations = listOperations((await loadSpec()).dereferenced).map(({ method, path, operationId }) => ({
    label: `${method.toUpperCase()} ${path}`,
    id: operationId,
  }))
  await clearOutput(options.out)
  // Schemathesis keeps its example database in its working directory: a fresh one, so a seed repeats a run.
  const scratch = await mkdtemp(join(tmpdir(), 'users-api-kit-fuzz-deep-'))
  const mock = await startMock({ disposable: DISPOSABLE_USERS })
  try {
    const before = await readUsers(mock)
    const runs = await runRounds(options, { schemathesis, mock, scratch, operations })
    if (runs === undefined) return 2
    const changed = countChangedProtectedUsers(before, await readUsers(mock), mock.target.disposable)
    const labels = operations.map(({ label }) => label)
    const figures = summarize(runs, { ...options, labels, version, changed })
    console.log(formatFindings(runs.flatMap((run) => run.findings)))
    console.log(`\n${formatFigures(figures)}`)
    await writeFile(join(options.out, 'figures.json'), `${JSON.stringify(figures, null, 2)}\n`)
    await writeFile(join(options.out, 'figures.md'), `${formatFigures(figures)}\n`)
    console.log(`\nFigures and reports: ${options.out}`)
    const clean = runs.every((run) => run.exitCode === 0) && figures.findings === 0 && figures.errors.length === 0
    return clean && changed === 0 ? 0 : 1
  } finally {
    await mock.close()
    await rm(scratch, { recursive: true, force: true })
  }
}

/** The reports and figures of an earlier run, and only those: --out may name a directory with other files. */
async function clearOutput(directory: string): Promise<void> {
  await mkdir(directory, { recursive: true })
  const names = (await readdir(directory)).filter((name) =>
    /^(figures\.|schemathesis-|(fuzzing|stateful)-\d+$)/.test(name),
  )
  await Promise.all(names.map((name) => rm(join(directory, name), { recursive: true, force: true })))
}

interface RoundContext {
  schemathesis: string
  mock: RunningMock
  scratch: string
  /** The document's operations, `GET /api/users` and `listUsers`. */
  operations: Array<{ label: string; id: string }>
}

/**
 * The main run; then, each with the next seed, fuzzing-only runs of the operations whose fuzzing phase
 * fell short, and stateful-only runs while the scenarios fall short.
 */
async function runRounds(options: Options, context: RoundContext): Promise<RunFigures[] | undefined> {
  const config = await writeDeepConfig(context.scratch, options.maxExamples)
  const main = await runRound(options, context, { kind: 'main', config, directory: options.out, seed: options.seed })
  if (main === undefined) return undefined
  const runs = [main]
  let seed = BigInt(main.seed || '0')
  const nextRound = async (kind: RunKind, round: number, operationIds?: string[]) => {
    seed += 1n
    const directory = join(options.out, `${kind}-${round}`)
    const run = await runRound(options, context, { kind, config, directory, seed: String(seed), operationIds })
    if (run !== undefined) runs.push(run)
    return run
  }
  for (let round = 1; round <= FUZZING_ROUNDS; round += 1) {
    const short = context.operations.filter(({ label }) => countFuzzing(runs, label) < options.maxExamples)
    if (short.length === 0) break
    console.log(
      `\nfuzz:deep: fuzzing fell short for ${short.map(({ label }) => label).join(', ')}; fuzzing round ${round} …`,
    )
    if (
      !(await nextRound(
        'fuzzing',
        round,
        short.map(({ id }) => id),
      ))
    )
      return undefined
  }
  const scenarios = () => runs.reduce((sum, run) => sum + run.statefulScenarios, 0)
  for (let round = 1; round <= STATEFUL_ROUNDS && scenarios() < options.maxExamples; round += 1) {
    console.log(`\nfuzz:deep: ${scenarios()} stateful scenarios so far; stateful round ${round} …`)
    if (!(await nextRound('stateful', round))) return undefined
  }
  return runs
}

function countFuzzing(runs: RunFigures[], label: string): number {
  return runs.reduce((sum, run) => sum + (run.operations.get(label)?.cases.fuzzing ?? 0), 0)
}

/** The kit's configuration, unchanged, plus DRAWS_PER_CASE and FUZZING_WITHOUT_RESPONSE_IDS. */
async function writeDeepConfig(directory: string, maxExamples: number): Promise<string> {
  const operationIds = new Set([...Object.keys(DRAWS_PER_CASE), ...FUZZING_WITHOUT_RESPONSE_IDS])
  const blocks = [...operationIds].map((operationId) =>
    [
      '\n[[operations]]',
      `include-operation-id = ["${operationId}"]`,
      `generation.max-examples = ${Math.ceil((DRAWS_PER_CASE[operationId] ?? 1) * maxExamples)}`,
      ...(FUZZING_WITHOUT_RESPONSE_IDS.includes(operationId)
        ? ['phases.fuzzing.extra-data-sources.responses = false']
        : []),
      '',
    ].join('\n'),
  )
  const path = join(directory, 'schemathesis-deep.toml')
  await writeFile(path, `${await readFile(CONFIG_FILE, 'utf8')}\n# fuzz:deep (scripts/fuzz-deep.ts)${blocks.join('')}`)
  return path
}

interface Round {
  kind: RunKind
  config: string
  directory: string
  seed: string | undefined
  /** Only these operations (`--include-operation-id`). */
  operationIds?: string[]
}

async function runRound(options: Options, context: RoundContext, round: Round): Promise<RunFigures | undefined> {
  await mkdir(round.directory, { recursive: true })
  const command = buildDeepCommand(options, context, round)
  const started = performance.now()
  const exitCode = await runSchemathesis(command, context.scratch)
  const seconds = (performance.now() - started) / 1000
  try {
    const { kind, directory, operationIds = [] } = round
    return { ...(await readRun(command)), kind, directory, operationIds, exitCode, seconds }
  } catch (error) {
    console.error(`fuzz:deep: Schemathesis stopped with exit code ${exitCode} without its reports (${error}).`)
    return undefined
  }
}

/** The `fuzz` command's Schemathesis command line for this mock, with the JSON run report and unique inputs. */
function buildDeepCommand(options: Options, context: RoundContext, round: Round) {
  const command = buildSchemathesisCommand({
    schemathesis: context.schemathesis,
    spec: resolve(DEFAULT_SPEC_PATH),
    baseUrl: context.mock.url,
    token: context.mock.target.actors.owner?.token ?? '',
    disposable: context.mock.target.disposable,
    checks: 'all',
    stateful: true,
    readOnly: false,
    maxExamples: options.maxExamples,
    workers: options.workers,
    reportDir: round.directory,
    hooksFile: HOOKS_FILE,
    configFile: round.config,
  })
  const jsonPath = join(round.directory, 'schemathesis-report.json')
  let args = replaceValue(command.args, '--report', (reports) => `${reports},json`)
  if (round.kind !== 'main') args = replaceValue(args, '--phases', () => round.kind)
  const only = (round.operationIds ?? []).flatMap((id) => ['--include-operation-id', id])
  const extra = ['--report-json-path', jsonPath, '--generation-unique-inputs', ...only]
  return { ...command, args: [...args, ...extra, ...(round.seed ? ['--seed', round.seed] : [])], jsonPath }
}

function replaceValue(args: string[], flag: string, replace: (value: string) => string): string[] {
  const index = args.indexOf(flag)
  if (index < 0) throw new Error(`The fuzz command line has no ${flag}: scripts/fuzz-deep.ts needs updating.`)
  return args.map((arg, position) => (position === index + 1 ? replace(arg) : arg))
}

interface SchemathesisRunReport {
  command: string
  test_cases: { generated: number }
  errors: Array<{ label?: string; message?: string; title?: string }>
}

async function readRun(paths: { jsonPath: string; junitPath: string; ndjsonPath: string }) {
  const text = await readFile(paths.jsonPath, 'utf8')
  const report = JSON.parse(text) as SchemathesisRunReport
  const { failed, ...events } = await readEvents(paths.ndjsonPath)
  return {
    ...events,
    schemathesisCommand: report.command,
    // Read from the text: a 128-bit seed loses its last digits as a JSON number.
    seed: /"seed":\s*(\d+)/.exec(text)?.[1] ?? '',
    generated: report.test_cases.generated,
    errors: report.errors.map((error) => `${error.label ?? ''}: ${error.message ?? error.title ?? ''}`),
    findings: readFindings({ junit: await readFile(paths.junitPath, 'utf8'), ndjson: failed }),
  }
}

interface ScenarioFinished {
  phase: string
  status: string
  recorder?: {
    label: string
    cases?: Record<string, { value: { method: string; path: string }; parent_id?: string }>
    interactions?: Record<string, { response?: { status_code?: number } | null }>
  }
}

type EventTotals = Pick<RunFigures, 'operations' | 'requests' | 'followUps' | 'statefulScenarios'>

/**
 * Counts from the NDJSON events, read a line at a time (a deep run writes hundreds of MB): the cases of
 * each operation by phase, requests, phases. Keeps the ScenarioFinished lines with a failed check: all
 * that readFindings needs of them.
 */
async function readEvents(path: string) {
  const totals: EventTotals = { operations: new Map(), requests: 0, followUps: 0, statefulScenarios: 0 }
  const phaseStarts = new Map<string, number>()
  const phases: RunFigures['phases'] = []
  const failed: string[] = []
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    if (line.startsWith('{"PhaseStarted"') || line.startsWith('{"PhaseFinished"')) {
      readPhaseEvent(line, phaseStarts, phases)
    } else if (line.startsWith('{"ScenarioFinished"')) {
      if (line.includes('"status":"failure"')) failed.push(line)
      countScenario((JSON.parse(line) as { ScenarioFinished: ScenarioFinished }).ScenarioFinished, totals)
    }
  }
  return { ...totals, phases, failed: failed.join('\n') }
}

function readPhaseEvent(line: string, starts: Map<string, number>, phases: RunFigures['phases']): void {
  const event = JSON.parse(line) as Record<string, { timestamp: number; phase: { name: string }; status?: string }>
  const [kind, payload] = Object.entries(event)[0] ?? []
  if (!payload || !isPhase(payload.phase.name)) return
  if (kind === 'PhaseStarted') starts.set(payload.phase.name, payload.timestamp)
  else {
    const seconds = payload.timestamp - (starts.get(payload.phase.name) ?? payload.timestamp)
    if (payload.status !== 'skip') phases.push({ name: payload.phase.name, status: payload.status ?? '?', seconds })
  }
}

/**
 * A scenario of the examples, coverage and fuzzing phases tests one operation, its label: its cases
 * without a parent were generated, those with one are a check's follow-up requests. A stateful
 * scenario is a chain of calls, each step a generated case of the operation it called.
 */
function countScenario(scenario: ScenarioFinished, totals: EventTotals): void {
  const { phase, recorder } = scenario
  if (!recorder || !isPhase(phase)) return
  // A skipped scenario sent nothing; Schemathesis's own "Scenarios:" leaves it out too.
  if (phase === 'stateful' && scenario.status !== 'skip') totals.statefulScenarios += 1
  totals.requests += Object.keys(recorder.interactions ?? {}).length
  for (const [id, recorded] of Object.entries(recorder.cases ?? {})) {
    if (phase !== 'stateful' && recorded.parent_id !== undefined) {
      totals.followUps += 1
      continue
    }
    const label = phase === 'stateful' ? `${recorded.value.method} ${recorded.value.path}` : recorder.label
    const status = String(recorder.interactions?.[id]?.response?.status_code ?? 'no response')
    addCases(totals.operations, label, phase, { [status]: 1 })
  }
}

function addCases(
  operations: Map<string, OperationFigures>,
  label: string,
  phase: Phase,
  statuses: Record<string, number>,
) {
  const figures = operations.get(label) ?? emptyFigures(label)
  operations.set(label, figures)
  for (const [status, count] of Object.entries(statuses)) {
    figures.cases[phase] += count
    figures.total += count
    figures.statuses[status] = (figures.statuses[status] ?? 0) + count
  }
}

function isPhase(name: string): name is Phase {
  return (PHASES as readonly string[]).includes(name)
}

function emptyFigures(operation: string): OperationFigures {
  return { operation, cases: { examples: 0, coverage: 0, fuzzing: 0, stateful: 0 }, total: 0, statuses: {} }
}

/** The figures of every run together, per documented operation, with what fell short of the target. */
function summarize(
  runs: RunFigures[],
  context: Options & { labels: string[]; version: string; changed: number },
): DeepFigures {
  const operations = new Map(context.labels.map((label) => [label, emptyFigures(label)]))
  for (const figures of runs.flatMap((run) => [...run.operations.values()])) {
    const into = operations.get(figures.operation) ?? emptyFigures(figures.operation)
    operations.set(figures.operation, into)
    for (const phase of PHASES) into.cases[phase] += figures.cases[phase]
    into.total += figures.total
    for (const [status, count] of Object.entries(figures.statuses))
      into.statuses[status] = (into.statuses[status] ?? 0) + count
  }
  const sum = (count: (run: RunFigures) => number) => runs.reduce((total, run) => total + count(run), 0)
  const figures: Omit<DeepFigures, 'shortfalls'> = {
    command: ['npm run fuzz:deep', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' '),
    date: new Date().toISOString(),
    schemathesisVersion: context.version,
    maxExamples: context.maxExamples,
    workers: context.workers,
    seconds: sum((run) => run.seconds),
    runs: runs.map(({ operations: _operations, findings: _findings, errors: _errors, ...run }) => run),
    operations: [...operations.values()],
    statefulScenarios: sum((run) => run.statefulScenarios),
    generated: sum((run) => run.generated),
    followUps: sum((run) => run.followUps),
    requests: sum((run) => run.requests),
    findings: sum((run) => run.findings.length),
    errors: runs.flatMap((run) => run.errors),
    protectedUsersChanged: context.changed,
  }
  return { ...figures, shortfalls: findShortfalls(figures) }
}

/** Every operation short of --max-examples distinct fuzzing cases, and the stateful scenarios, after every run. */
function findShortfalls(figures: Omit<DeepFigures, 'shortfalls'>): string[] {
  // The fuzzing phase alone is held to the target: the other phases only add to it.
  const shortfalls = figures.operations
    .filter((operation) => operation.cases.fuzzing < figures.maxExamples)
    .map((operation) => `${operation.operation}: ${operation.cases.fuzzing} distinct fuzzing cases`)
  if (figures.statefulScenarios < figures.maxExamples)
    shortfalls.push(`stateful: ${figures.statefulScenarios} scenarios in ${figures.runs.length} runs`)
  return shortfalls
}

async function readUsers(mock: RunningMock): Promise<Map<string, string>> {
  const state = (await (await fetch(`${mock.url}/__mock/state`)).json()) as { users: Array<{ id: string }> }
  return new Map(state.users.map((user) => [user.id, JSON.stringify(user)]))
}

function countChangedProtectedUsers(
  before: Map<string, string>,
  after: Map<string, string>,
  disposable: Array<{ id: string }>,
): number {
  const pool = new Set(disposable.map((user) => user.id))
  return [...before].filter(([id, user]) => !pool.has(id) && after.get(id) !== user).length
}

/** The figures as Markdown (lists around a table): what docs/fuzz-deep.md quotes. */
function formatFigures(figures: DeepFigures): string {
  const [main, ...extra] = figures.runs
  const phases = (main?.phases ?? []).map((phase) => `${phase.name} ${formatSeconds(phase.seconds)} (${phase.status})`)
  const fuzzing = extra.filter((run) => run.kind === 'fuzzing')
  const fuzzingRuns = fuzzing.map(
    (run) => `seed ${run.seed}, ${run.operationIds.join(' ')}, ${formatSeconds(run.seconds)}`,
  )
  const stateful = extra.filter((run) => run.kind === 'stateful')
  const statefulSeconds = stateful.reduce((sum, run) => sum + run.seconds, 0)
  const statefulRuns = `${stateful.length}, seeds ${stateful[0]?.seed} to ${stateful.at(-1)?.seed}: ${stateful.map((run) => run.statefulScenarios).join(' + ')} scenarios in ${formatSeconds(statefulSeconds)}`
  return [
    `- Command: \`${figures.command}\``,
    `- Date: ${figures.date}`,
    `- Schemathesis ${figures.schemathesisVersion}, seed ${main?.seed}, --max-examples ${figures.maxExamples}, --workers ${figures.workers}`,
    `- Duration: ${formatSeconds(figures.seconds)}. Main run: ${phases.join(', ')}; ${main?.statefulScenarios} stateful scenarios.`,
    `- Fuzzing-only runs: ${fuzzing.length === 0 ? 'none needed' : fuzzingRuns.join('; ')}.`,
    `- Stateful-only runs: ${stateful.length === 0 ? 'none needed' : statefulRuns}.`,
    '',
    '| operation | examples | coverage | fuzzing | stateful | total | responses |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...figures.operations.map(formatOperationRow),
    '',
    `- Stateful scenarios: ${figures.statefulScenarios}. Test cases: ${figures.generated} (Schemathesis's count, ${figures.followUps} follow-up requests of checks included); requests sent: ${figures.requests}.`,
    `- Findings: ${figures.findings}. Errors: ${figures.errors.length === 0 ? 0 : figures.errors.join('; ')}. Users outside the disposable pool changed: ${figures.protectedUsersChanged}.`,
    `- Below --max-examples (${figures.maxExamples}): ${figures.shortfalls.length === 0 ? 'nothing' : figures.shortfalls.join('; ')}.`,
  ].join('\n')
}

function formatOperationRow(operation: OperationFigures): string {
  const statuses = Object.entries(operation.statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, count]) => `${status}×${count}`)
    .join(' ')
  const { examples, coverage, fuzzing, stateful } = operation.cases
  return `| ${operation.operation} | ${examples} | ${coverage} | ${fuzzing} | ${stateful} | ${operation.total} | ${statuses} |`
}

function formatSeconds(seconds: number): string {
  return seconds < 120 ? `${seconds.toFixed(1)} s` : `${Math.floor(seconds / 60)} min ${Math.floor(seconds % 60)} s`
}
