import autocannon from 'autocannon'
import type { LoadOptions, LoadRun } from './load-run.js'

/**
 * One autocannon run in this process (the fallback when wrk is missing), every 2xx response time kept:
 * autocannon's own histogram rounds to whole milliseconds. The load generator's CPU is this process's.
 */
export async function runAutocannon(options: LoadOptions): Promise<Omit<LoadRun, 'serverCpuMs'>> {
  const before = process.cpuUsage()
  const run = await runAutocannonOnly(options)
  const cpu = process.cpuUsage(before)
  return { ...run, clientCpuMs: (cpu.user + cpu.system) / 1000 }
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
        latencyWeight: 1,
        failures: failures.length > 0 ? failures.join(', ') : undefined,
      })
    })
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs)
    })
  })
}
