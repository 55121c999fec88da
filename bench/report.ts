// What `npm run bench` measured: bench/run.ts fills a Report, check-goals.ts and render-report.ts read it.
import type { LoadFigures } from './load.js'

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
  throughput: Array<{
    label: string
    goal: number
    bodyBytes: number
    bare: LoadFigures
    mock: LoadFigures
    roundRatios: number[]
  }>
  coldStart: {
    bare: number[]
    /** Each with an empty start-cache folder: a fresh install, reading only dist/start-cache. */
    mockFirst: number[]
    /** USERS_API_KIT_CACHE=off: every start step computed (YAML, validation, faker). */
    mockUncached: number[]
    /** With a start-cache folder an earlier start filled. */
    mockCached: number[]
    /** Whether the mock wrote anything in its start-cache folder. */
    cacheWritten: boolean
  }
  memory: Array<{ label: string; goal: boolean; rssMiB?: number | undefined; peakMiB?: number | undefined }>
  large: {
    users: number
    /** Spawn → listening; absent when the mock did not listen within `gaveUpAfterMs`. */
    seedingMs?: number
    gaveUpAfterMs?: number
    members?: number
    firstQueryMs?: number
    /** A second start with the same inputs: spawn → listening. */
    restartMs?: number
    restartGaveUpAfterMs?: number
    /** Every query of part 4; `figures` is absent when it was not measured. */
    queries: Array<{ label: string; goalP99: number | undefined; matches?: number; figures?: LoadFigures }>
  }
  /** Part 5: `verify --base-url` against a fresh mock, wall time per run. */
  contractSuite: { wallMs: number[]; checks: string }
  totalSeconds: number
  /** How busy the machine was with other work, at the start and at the end of the run. */
  contention: { atStart: string; atEnd: string }
}
