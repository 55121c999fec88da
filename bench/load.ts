import autocannon from 'autocannon'
import { readProcessCpuMs } from './process-cpu.js'

export interface LoadOptions {
  url: string
  headers?: Record<string, string>
  connections: number
  warmupSeconds: number
  seconds: number
  /** The server's process, to measure the CPU time it spends. */
  serverPid?: number
}

/** One measured run: every response time, for percentiles finer than autocannon's whole milliseconds. */
export interface LoadRun {
  requests: number
  seconds: number
  /** Response times of the 2xx responses, in ms, sorted. */
  latencies: Float64Array
  failures: string | undefined
  /** CPU time of the server process during the run (ms), when its pid was given. */
  serverCpuMs: number | undefined
  /** CPU time of this process, the load generator, during the run (ms). */
  clientCpuMs: number
}

/** Warm-up (discarded), then the measured run. */
export async function measureLoad(options: LoadOptions): Promise<LoadRun> {
  if (options.warmupSeconds > 0) await runAutocannon({ ...options, seconds: options.warmupSeconds })
  return runAutocannon(options)
}

async function runAutocannon(options: LoadOptions): Promise<LoadRun> {
  const serverBefore = options.serverPid === undefined ? undefined : await readProcessCpuMs(options.serverPid)
  const clientBefore = process.cpuUsage()
  const run = await runAutocannonOnly(options)
  const serverAfter = options.serverPid === undefined ? undefined : await readProcessCpuMs(options.serverPid)
  const client = process.cpuUsage(clientBefore)
  return {
    ...run,
    serverCpuMs: serverBefore === undefined || serverAfter === undefined ? undefined : serverAfter - serverBefore,
    clientCpuMs: (client.user + client.system) / 1000,
  }
}

function runAutocannonOnly({
  url,
  headers = {},
  connections,
  seconds,
}: LoadOptions): Promise<Omit<LoadRun, 'serverCpuMs' | 'clientCpuMs'>> {
  const latencies: number[] = []
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, headers, connections, duration: seconds }, (error, result) => {
      if (error) return reject(error)
      const failures = [
        result.non2xx > 0 ? `${result.non2xx} non-2xx` : '',
        result.errors > 0 ? `${result.errors} errors` : '',
        result.timeouts > 0 ? `${result.timeouts} timeouts` : '',
      ].filter(Boolean)
      resolve({
        requests: latencies.length,
        seconds: result.duration,
        latencies: Float64Array.from(latencies).sort(),
        failures: failures.length > 0 ? failures.join(', ') : undefined,
      })
    })
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs)
    })
  })
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
  clientBusy: number
}

export function poolRuns(runs: LoadRun[]): LoadFigures {
  const all = Float64Array.from(runs.flatMap((run) => [...run.latencies])).sort()
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0)
  const failures = runs.flatMap((run) => (run.failures ? [run.failures] : []))
  const requests = runs.reduce((sum, run) => sum + run.requests, 0)
  const serverCpuMs = runs.every((run) => run.serverCpuMs !== undefined)
    ? runs.reduce((sum, run) => sum + run.serverCpuMs!, 0)
    : undefined
  return {
    requestsPerSecond: requests / seconds,
    serverCpuPerRequestUs: serverCpuMs === undefined ? undefined : (serverCpuMs * 1000) / requests,
    serverBusy: serverCpuMs === undefined ? undefined : serverCpuMs / (seconds * 1000),
    clientBusy: runs.reduce((sum, run) => sum + run.clientCpuMs, 0) / (seconds * 1000),
    p50: percentile(all, 0.5),
    p99: percentile(all, 0.99),
    runs: runs.length,
    failures: failures.length > 0 ? failures.join('; ') : undefined,
  }
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? NaN
}

export function median(values: number[]): number {
  return percentile(Float64Array.from(values).sort(), 0.5)
}
