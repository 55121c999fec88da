import { median } from './load.js'
import type { Report } from './report.js'

export interface Check {
  figure: string
  measured: string
  goal: string
  pass: boolean
  /** Why the verdict is fragile, e.g. rounds on both sides of the goal. */
  caveat?: string
}

const RSS_GOAL_MIB = 300
const COLD_START_GOAL = 1.3
/** Gzipped, 1 KB = 1,000 bytes. */
const MSW_BUNDLE_GOAL_KB = 80
/** verify against a running mock (issue 34): the whole suite, --only core, and its first line of output. */
const SUITE_GOAL_SECONDS = 3
const CORE_SUITE_GOAL_SECONDS = 2
const FIRST_LINE_GOAL_SECONDS = 1
/** Server CPU per request, mock / bare, for the rows with a throughput goal run --quiet. */
const CPU_PER_REQUEST_GOAL = 1.5
/** µs per fetch under msw/node, users-api-kit/msw / a hand-written handler. */
const MSW_IN_PROCESS_GOAL = 1.2
/** A load generator busier than this may have set the pace rather than the server. */
const BUSY_LOAD_GENERATOR = 0.9

/** Every figure that has a goal, in the order of the brief. */
export function checkGoals(report: Report): Check[] {
  const checks: Check[] = []
  for (const row of report.throughput) {
    if (row.goal === undefined) continue
    const goal = row.goal
    const ratio = row.mock.requestsPerSecond / row.bare.requestsPerSecond
    const caveats = [
      Math.min(...row.roundRatios) < goal && Math.max(...row.roundRatios) >= goal
        ? `rounds ${row.roundRatios.map((value) => value.toFixed(2)).join(', ')} fall on both sides of the goal`
        : '',
      [row.bare, row.mock].some((figures) => (figures.clientBusy ?? 0) > BUSY_LOAD_GENERATOR)
        ? `the load generator used over ${BUSY_LOAD_GENERATOR * 100} % of a core and may have set the pace`
        : '',
    ].filter(Boolean)
    checks.push({
      figure: `${row.label}: requests/s, mock / bare`,
      measured: ratio.toFixed(2),
      goal: `≥ ${goal.toFixed(1)}`,
      pass: ratio >= goal,
      ...(caveats.length === 0 ? {} : { caveat: caveats.join('; ') }),
    })
  }
  for (const row of report.throughput.filter((row) => row.goal !== undefined && row.label.endsWith('--quiet'))) {
    const mock = row.mock.serverCpuPerRequestUs
    const bare = row.bare.serverCpuPerRequestUs
    const ratio = mock === undefined || bare === undefined ? undefined : mock / bare
    checks.push({
      figure: `${row.label}: server CPU per request, mock / bare`,
      measured: ratio === undefined ? 'not measured' : ratio.toFixed(2),
      goal: `≤ ${CPU_PER_REQUEST_GOAL}`,
      pass: ratio !== undefined && ratio <= CPU_PER_REQUEST_GOAL,
    })
  }
  for (const [name, label] of [
    ['me', 'GET /api/users/me'],
    ['page', 'GET /api/users?limit=20'],
  ] as const) {
    const { kit, hand } = report.mswInProcess.results[name]
    const ratio = median(kit) / median(hand)
    checks.push({
      figure: `In process, ${label}: a fetch under msw/node's setupServer through users-api-kit/msw / a hand-written msw handler answering the same bytes (median µs)`,
      measured: ratio.toFixed(2),
      goal: `≤ ${MSW_IN_PROCESS_GOAL}`,
      pass: ratio <= MSW_IN_PROCESS_GOAL,
    })
  }
  const { coldStart } = report
  const coldRatio = median(coldStart.mock) / median(coldStart.bare)
  checks.push({
    figure: 'Cold start (spawn → first 200 of /me), nothing cached: median mock / median bare',
    measured: coldRatio.toFixed(2),
    goal: `≤ ${COLD_START_GOAL}`,
    pass: coldRatio <= COLD_START_GOAL,
  })
  const bundleKb = report.mswBundle.initial.gzipBytes / 1000
  checks.push({
    figure: 'Browser bundle of users-api-kit/msw, default seed (entry chunk and its static imports), gzipped',
    measured: `${bundleKb.toFixed(1)} KB`,
    goal: `≤ ${MSW_BUNDLE_GOAL_KB} KB`,
    pass: bundleKb <= MSW_BUNDLE_GOAL_KB,
  })
  for (const row of report.memory.filter((memory) => memory.goal)) {
    const measured = row.rssMiB === undefined ? notMeasured(report) : `${row.rssMiB.toFixed(0)} MiB`
    checks.push({
      figure: `RSS, ${row.label}`,
      measured,
      goal: `< ${RSS_GOAL_MIB} MiB`,
      pass: row.rssMiB !== undefined && row.rssMiB < RSS_GOAL_MIB,
    })
  }
  for (const query of report.large.queries.filter((query) => query.goalP99 !== undefined)) {
    const p99 = query.figures?.p99
    const figure = `${formatCount(report.large.users)} users, GET /api/users${query.label} at ${report.settings.connections} connections: p99`
    checks.push({
      figure,
      measured: p99 === undefined ? notMeasured(report) : `${p99.toFixed(2)} ms`,
      goal: `< ${query.goalP99} ms`,
      pass: p99 !== undefined && p99 < query.goalP99!,
    })
  }
  const suite = report.contractSuite
  for (const [figure, values, goal] of [
    [
      'Contract suite against a running mock (verify --base-url, spawn → exit): median',
      suite.wallMs,
      SUITE_GOAL_SECONDS,
    ],
    ['The same, --only core: median', suite.coreWallMs, CORE_SUITE_GOAL_SECONDS],
    ["The same, the whole suite: spawn → verify's first line, median", suite.firstLineMs, FIRST_LINE_GOAL_SECONDS],
  ] as const) {
    const ms = median([...values])
    checks.push({
      figure,
      measured: `${(ms / 1000).toFixed(2)} s`,
      goal: `≤ ${goal} s`,
      pass: ms <= goal * 1000,
      ...(values.length > 1
        ? { caveat: `runs: ${values.map((value) => (value / 1000).toFixed(2)).join(', ')} s` }
        : {}),
    })
  }
  return checks
}

export function notMeasured({ large }: Report): string {
  return large.gaveUpAfterMs === undefined
    ? 'not measured'
    : `not measured: still seeding after ${large.gaveUpAfterMs / 1000} s`
}

export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en')
}
