/** The part of autocannon 8's programmatic API the benchmark uses (the package ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events'

  interface Options {
    url: string
    connections?: number
    /** Seconds. */
    duration?: number
    headers?: Record<string, string>
    method?: string
    pipelining?: number
    /** Sent in turn by each connection, over and over; `setupRequest` builds each request as it is sent. */
    requests?: RequestStep[]
  }

  interface RequestStep {
    setupRequest?: (request: RequestParts, context: Record<string, unknown>) => RequestParts
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void
  }

  interface RequestParts {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
  }

  interface Histogram {
    average: number
    mean: number
    stddev: number
    min: number
    max: number
    total: number
    p50: number
    p99: number
  }

  interface Result {
    /** Seconds, two decimals. */
    duration: number
    errors: number
    timeouts: number
    non2xx: number
    '2xx': number
    latency: Histogram
    requests: Histogram
    throughput: Histogram
  }

  interface Instance extends EventEmitter {
    stop(): void
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void,
    ): this
    on(event: string, listener: (...args: unknown[]) => void): this
  }

  function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): Instance
  export default autocannon
}
