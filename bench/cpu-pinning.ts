import { execFileSync } from 'node:child_process'
import { availableParallelism } from 'node:os'

/**
 * Where the bench runs its servers and its load generator: on a machine of two cores, an unpinned run
 * measures how the server and wrk contend for them as much as the server, so each gets a core of its own
 * (`taskset`, util-linux) whenever the machine has two or more and taskset is there.
 */
export interface CpuPinning {
  /** The command and arguments that run `file args` on the servers' core (as they are, when unpinned). */
  server(file: string, args: string[]): [string, string[]]
  /** The same on the load generator's core. */
  loadGenerator(file: string, args: string[]): [string, string[]]
  /**
   * The load generator where a helper of the bench shares its core (the fan-out's webhook receiver): also
   * ahead of it (`chrt -f`, a real-time priority, where allowed), or the helper's work lands in the
   * latencies measured. Only for a load generator that waits for its answers, never for one that spins.
   */
  loadGeneratorAhead(file: string, args: string[]): [string, string[]]
  /** For the report. */
  description: string
  /** For the report: whether loadGeneratorAhead runs ahead, or why not. */
  aheadDescription: string
}

const SERVER_CORE = 1
const LOAD_CORE = 0

/** The pinning this machine allows; BENCH_PINNING=off turns it off. */
export function cpuPinning(): CpuPinning {
  const cores = availableParallelism()
  const wanted = process.env['BENCH_PINNING'] !== 'off'
  if (!wanted || cores < 2 || !hasTaskset()) {
    const why = !wanted ? 'BENCH_PINNING=off' : cores < 2 ? 'one core' : 'no taskset (apt-get install util-linux)'
    return {
      server: (file, args) => [file, args],
      loadGenerator: (file, args) => [file, args],
      ...ahead((file, args) => [file, args]),
      description: `unpinned (${why}): servers and load generator share the cores`,
    }
  }
  const on =
    (core: number) =>
    (file: string, args: string[]): [string, string[]] => ['taskset', ['-c', String(core), file, ...args]]
  return {
    server: on(SERVER_CORE),
    loadGenerator: on(LOAD_CORE),
    ...ahead(on(LOAD_CORE)),
    description: `pinned with taskset: servers on core ${SERVER_CORE}, the load generator on core ${LOAD_CORE} (of ${cores})`,
  }
}

/** A real-time priority for the load generator where chrt may set one (root, or CAP_SYS_NICE). */
function ahead(
  place: (file: string, args: string[]) => [string, string[]],
): Pick<CpuPinning, 'loadGeneratorAhead' | 'aheadDescription'> {
  if (!mayRunRealTime()) {
    return {
      loadGeneratorAhead: place,
      aheadDescription: 'at the usual priority (chrt -f not allowed here): helpers on its core add to its latencies',
    }
  }
  return {
    loadGeneratorAhead: (file, args) => place('chrt', ['-f', String(REAL_TIME_PRIORITY), file, ...args]),
    aheadDescription: `at real-time priority (chrt -f ${REAL_TIME_PRIORITY}), ahead of the helpers on its core`,
  }
}

const REAL_TIME_PRIORITY = 10

function mayRunRealTime(): boolean {
  try {
    execFileSync('chrt', ['-f', String(REAL_TIME_PRIORITY), 'true'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}
