import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { LoadOptions, LoadRun } from './load-run.js'
import { cpuMsOfStat } from './process-cpu.js'
import { PINNING } from './server-process.js'

const run = promisify(execFile)
const REPORT_SCRIPT = fileURLToPath(new URL('./wrk-report.lua', import.meta.url))

interface WrkResult {
  requests: number
  durationUs: number
  connect: number
  read: number
  write: number
  /** Responses with a status over 399. */
  status: number
  timeout: number
  percentilesUs: number[]
}

/**
 * One wrk run, its figures printed by wrk-report.lua. One thread: it drives 10 connections faster than
 * any Node server answers, and wrk shares connections out between threads by whole numbers.
 */
export async function runWrk({
  url,
  headers = {},
  connections,
  seconds,
}: LoadOptions): Promise<Omit<LoadRun, 'serverCpuMs'>> {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', REPORT_SCRIPT]
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`)
  const [file, pinnedArgs] = PINNING.loadGenerator('wrk', [...args, url])
  const { stdout } = await run(file, pinnedArgs, { maxBuffer: 16 * 1024 * 1024 })
  const json = /^BENCH_RESULT (.*)$/m.exec(stdout)?.[1]
  if (json === undefined) throw new Error(`wrk ${args.join(' ')} ${url}: no BENCH_RESULT line\n${stdout}`)
  const result = JSON.parse(json) as WrkResult
  const stat = /^BENCH_STAT (.*)$/m.exec(stdout)?.[1]
  const failures = [
    result.status > 0 ? `${result.status} HTTP 4xx/5xx` : '',
    result.connect + result.read + result.write > 0
      ? `${result.connect + result.read + result.write} socket errors (connect ${result.connect}, read ${result.read}, write ${result.write})`
      : '',
    result.timeout > 0 ? `${result.timeout} timeouts` : '',
  ].filter(Boolean)
  const answered = result.requests - result.status
  return {
    requests: answered,
    seconds: result.durationUs / 1e6,
    latencies: Float64Array.from(result.percentilesUs, (us) => us / 1000),
    latencyWeight: answered / result.percentilesUs.length,
    failures: failures.length > 0 ? failures.join(', ') : undefined,
    clientCpuMs: stat === undefined ? undefined : cpuMsOfStat(stat),
  }
}
