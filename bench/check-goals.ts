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

/** Every figure that has a goal, in the order of the brief. */
export function checkGoals(report: Report): Check[] {
  const checks: Check[] = report.throughput.map((row) => {
    const ratio = row.mock.requestsPerSecond / row.bare.requestsPerSecond
    const straddles = Math.min(...row.roundRatios) < row.goal && Math.max(...row.roundRatios) >= row.goal
    const caveat = straddles
      ? `rounds ${row.roundRatios.map((value) => value.toFixed(2)).join(', ')} fall on both sides of the goal`
      : undefined
    return {
      figure: `${row.label}: requests/s, mock / bare`,
      measured: ratio.toFixed(2),
      goal: `≥ ${row.goal}`,
      pass: ratio >= row.goal,
      ...(caveat === undefined ? {} : { caveat }),
    }
  })
  const { coldStart } = report
  for (const [name, runs] of [
    ['first start after a fresh install', coldStart.mockFirst],
    ['start cache filled by an earlier start', coldStart.mockCached],
    ['start cache off (USERS_API_KIT_CACHE=off)', coldStart.mockUncached],
  ] as const) {
    const ratio = median(runs) / median(coldStart.bare)
    checks.push({
      figure: `Cold start (spawn → first 200 of /me), ${name}: median mock / median bare`,
      measured: ratio.toFixed(2),
      goal: `≤ ${COLD_START_GOAL}`,
      pass: ratio <= COLD_START_GOAL,
    })
  }
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
  const suiteMs = median(report.contractSuite.wallMs)
  checks.push({
    figure: `Contract suite against a fresh mock (verify --base-url, spawn → exit): median`,
    measured: `${(suiteMs / 1000).toFixed(1)} s`,
    goal: `< ${SUITE_GOAL_SECONDS} s`,
    pass: suiteMs < SUITE_GOAL_SECONDS * 1000,
  })
  return checks
}

const SUITE_GOAL_SECONDS = 15

export function notMeasured({ large }: Report): string {
  return large.gaveUpAfterMs === undefined
    ? 'not measured'
    : `not measured: still seeding after ${large.gaveUpAfterMs / 1000} s`
}

export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en')
}
