// What a load generator is asked for and what one run of it gives: shared by the runners (wrk-run.ts,
// autocannon-run.ts) and load.ts, which picks one and pools their runs.

export interface LoadOptions {
  url: string
  headers?: Record<string, string>
  connections: number
  warmupSeconds: number
  seconds: number
  /** The server's process, to measure the CPU time it spends. */
  serverPid?: number
}

/** One measured run. */
export interface LoadRun {
  /** Responses under 400 (wrk) or 2xx (autocannon). */
  requests: number
  seconds: number
  /**
   * Response times in ms, sorted, each standing for `latencyWeight` responses: every 2xx one
   * (autocannon, weight 1), or wrk's percentiles at every 0.1 % (weight: a thousandth of the run).
   */
  latencies: Float64Array
  latencyWeight: number
  failures: string | undefined
  /** CPU time of the server process during the run (ms), when its pid was given. */
  serverCpuMs: number | undefined
  /** CPU time of the load generator during the run (ms), where it could be read. */
  clientCpuMs: number | undefined
}
