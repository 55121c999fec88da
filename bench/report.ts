// What `npm run bench` measured: bench/run.ts fills a Report, check-goals.ts and render-report.ts read it.
import type { LoadFigures } from './load.js'
import type { LoadGenerator } from './load-generator.js'

export interface Settings {
  connections: number
  warmupSeconds: number
  seconds: number
  /** Alternated rounds per route: bare, mock, bare, mock… */
  rounds: number
  coldStarts: number
  /** Runs of the contract suite against a fresh mock. */
  suiteRuns: number
}

export interface Machine {
  date: string
  cpus: number
  cpuModel: string
  node: string
  os: string
  code: string
}

export interface Report {
  settings: Settings
  machine: Machine
  /** wrk, or autocannon where wrk is missing (load-generator.ts). */
  loadGenerator: LoadGenerator
  throughput: Array<{
    label: string
    /** Least requests/s of the mock / the bare server's; none: measured to compare, not judged. */
    goal?: number
    bodyBytes: number
    bare: LoadFigures
    mock: LoadFigures
    roundRatios: number[]
  }>
  /** Spawn → first 200 of /api/users/me, ms; the mock caches nothing between starts. */
  coldStart: { bare: number[]; mock: number[] }
  memory: Array<{ label: string; goal: boolean; rssMiB?: number | undefined; peakMiB?: number | undefined }>
  large: {
    users: number
    /** Spawn → listening; absent when the mock did not listen within `gaveUpAfterMs`. */
    seedingMs?: number
    gaveUpAfterMs?: number
    members?: number
    firstQueryMs?: number
    /** Every query of part 4; `figures` is absent when it was not measured. */
    queries: Array<{ label: string; goalP99: number | undefined; matches?: number; figures?: LoadFigures }>
  }
  /** Part 5: `verify --base-url` against a running mock, per run: the whole suite, `--only core`, the first line. */
  contractSuite: { wallMs: number[]; coreWallMs: number[]; firstLineMs: number[]; checks: string; coreChecks: string }
  /** Part 6: the browser bundle of users-api-kit/msw (msw-bundle.ts). */
  mswBundle: {
    esbuild: string
    /** The module bundled, relative to the repository. */
    entry: string
    /** The entry chunk and its static imports: what the default seed loads. */
    initial: BundleSize
    /** The source files taking the most of `initial`, minified bytes. */
    largestInputs: Array<{ path: string; bytes: number }>
    /** Behind the dynamic import a custom seed takes (faker). */
    faker: BundleSize
  }
  /** Part 7: the mock direct and through `users-api-kit proxy` (proxy-overhead.ts). */
  proxy: {
    rows: Array<{ label: string; direct: LoadFigures; proxied: LoadFigures }>
    /** The proxy process after its load runs. */
    memory: { rssMiB: number; peakMiB: number } | undefined
    /** What the proxy judged during the runs. */
    counts: { exchanges: number; judged: number; violations: number; client: number; unchecked: number }
  }
  /** Part 8: µs per `fetch` under msw/node, each round, through users-api-kit/msw and a hand-written handler. */
  mswInProcess: {
    results: Record<'me' | 'page', { kit: number[]; hand: number[] }>
    /** The body's length of each answer. */
    bytes: Record<'me' | 'page', number>
  }
  totalSeconds: number
  /** How busy the machine was with other work, at the start and at the end of the run. */
  contention: { atStart: string; atEnd: string }
}

export interface BundleSize {
  files: number
  /** Minified. */
  bytes: number
  /** Each file gzipped on its own, summed. */
  gzipBytes: number
}
