import { runAutocannon } from './autocannon-run.js'
import { loadGenerator } from './load-generator.js'
import { readProcessCpuMs } from './process-cpu.js'
import { runWrk } from './wrk-run.js'
import { OWNER } from './mock-http.js'
import { log } from './progress.js'
import type { LoadOptions, LoadRun } from './load-run.js'

/** Warm-up (discarded), then the measured run, with the load generator loadGenerator() chose. */
export async function measureLoad(options: LoadOptions): Promise<LoadRun> {
  if (options.warmupSeconds > 0) await runOnce({ ...options, seconds: options.warmupSeconds })
  return runOnce(options)
}

async function runOnce(options: LoadOptions): Promise<LoadRun> {
  const serverBefore = options.serverPid === undefined ? undefined : await readProcessCpuMs(options.serverPid)
  const run = loadGenerator().name === 'wrk' ? await runWrk(options) : await runAutocannon(options)
  const serverAfter = options.serverPid === undefined ? undefined : await readProcessCpuMs(options.serverPid)
  return {
    ...run,
    serverCpuMs: serverBefore === undefined || serverAfter === undefined ? undefined : serverAfter - serverBefore,
  }
}

/**
 * `path` on each server in turn, `settings.rounds` times (a drift of the machine lands on every server
 * alike), as the owner: each server's runs, by name. `describe` names a run in the progress log.
 */
export async function measureAlternately<Name extends string>(
  servers: ReadonlyArray<readonly [Name, { url: string; pid: number }]>,
  path: string,
  settings: Omit<LoadOptions, 'url' | 'headers' | 'serverPid'> & { rounds: number },
  describe: (name: Name, round: number) => string,
): Promise<Record<Name, LoadRun[]>> {
  const runs = Object.fromEntries(servers.map(([name]) => [name, [] as LoadRun[]])) as Record<Name, LoadRun[]>
  for (let round = 1; round <= settings.rounds; round++) {
    for (const [name, server] of servers) {
      log(describe(name, round))
      runs[name].push(
        await measureLoad({ ...settings, url: `${server.url}${path}`, headers: OWNER, serverPid: server.pid }),
      )
    }
  }
  return runs
}

/** Runs pooled: requests/s over the summed time, percentiles over every response. */
export interface LoadFigures {
  requestsPerSecond: number
  p50: number
  p99: number
  runs: number
  failures: string | undefined
  /** Server CPU time per request, in µs (undefined when not measured). */
  serverCpuPerRequestUs: number | undefined
  /** Share of one core the server used during the runs. */
  serverBusy: number | undefined
  /** Share of one core the load generator used: near 1, it was the bottleneck. */
  clientBusy: number | undefined
}

export function poolRuns(runs: LoadRun[]): LoadFigures {
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0)
  const failures = runs.flatMap((run) => (run.failures ? [run.failures] : []))
  const requests = runs.reduce((sum, run) => sum + run.requests, 0)
  const serverCpuMs = sumIfAll(runs.map((run) => run.serverCpuMs))
  const clientCpuMs = sumIfAll(runs.map((run) => run.clientCpuMs))
  const latencies = weightedLatencies(runs)
  return {
    requestsPerSecond: requests / seconds,
    serverCpuPerRequestUs: serverCpuMs === undefined ? undefined : (serverCpuMs * 1000) / requests,
    serverBusy: serverCpuMs === undefined ? undefined : serverCpuMs / (seconds * 1000),
    clientBusy: clientCpuMs === undefined ? undefined : clientCpuMs / (seconds * 1000),
    p50: weightedPercentile(latencies, 0.5),
    p99: weightedPercentile(latencies, 0.99),
    runs: runs.length,
    failures: failures.length > 0 ? failures.join('; ') : undefined,
  }
}

function sumIfAll(values: Array<number | undefined>): number | undefined {
  return values.every((value) => value !== undefined) ? values.reduce((sum, value) => sum + value, 0) : undefined
}

/** Every run's latencies with their weights, sorted by latency. */
function weightedLatencies(runs: LoadRun[]): Array<{ ms: number; weight: number }> {
  return runs
    .flatMap((run) => Array.from(run.latencies, (ms) => ({ ms, weight: run.latencyWeight })))
    .sort((a, b) => a.ms - b.ms)
}

/** Nearest-rank percentile of weighted, sorted values: the first whose cumulative weight reaches the rank. */
function weightedPercentile(sorted: Array<{ ms: number; weight: number }>, fraction: number): number {
  const total = sorted.reduce((sum, point) => sum + point.weight, 0)
  // The tolerance keeps a rank that floating-point sums miss by a hair (weights of a thousandth).
  const rank = fraction * total * (1 - 1e-9)
  let cumulative = 0
  for (const point of sorted) {
    cumulative += point.weight
    if (cumulative >= rank) return point.ms
  }
  return NaN
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? NaN
}

export function median(values: number[]): number {
  return percentile(Float64Array.from(values).sort(), 0.5)
}
