import { spawnSync } from 'node:child_process'
import { log } from './progress.js'

export interface LoadGenerator {
  name: 'wrk' | 'autocannon'
  /** For the report: which one, and how it runs. */
  description: string
}

/** How to get wrk, said wherever the bench falls back to autocannon. */
export const WRK_HINT = 'wrk is a system package: `apt-get install wrk` (Debian, Ubuntu), `brew install wrk` (macOS)'

let chosen: LoadGenerator | undefined

/**
 * wrk when it is on the PATH, else autocannon. wrk is C, in its own process: one thread drives 10
 * connections at several times the requests/s a Node server answers, so the server sets the pace.
 * autocannon runs in this Node process and costs about as much CPU per request as the bare server:
 * near 100 % of a core it, not the server, sets the pace and the ratios understate the differences.
 * BENCH_LOAD_GENERATOR=autocannon (or wrk) forces one.
 */
export function loadGenerator(): LoadGenerator {
  if (chosen) return chosen
  const wanted = process.env.BENCH_LOAD_GENERATOR
  if (wanted !== undefined && wanted !== 'wrk' && wanted !== 'autocannon') {
    throw new Error(`BENCH_LOAD_GENERATOR must be wrk or autocannon, not "${wanted}".`)
  }
  const wrkVersion = wanted === 'autocannon' ? undefined : readWrkVersion()
  if (wanted === 'wrk' && wrkVersion === undefined)
    throw new Error(`BENCH_LOAD_GENERATOR=wrk, but no wrk: ${WRK_HINT}.`)
  if (wrkVersion !== undefined) {
    chosen = { name: 'wrk', description: `${wrkVersion}, 1 thread, in its own process` }
  } else {
    chosen = {
      name: 'autocannon',
      description: `autocannon 8 in the bench's own Node process (${wanted === 'autocannon' ? 'BENCH_LOAD_GENERATOR=autocannon' : `wrk not found; ${WRK_HINT}`}): it may set the pace, see its CPU`,
    }
    log(`bench: load generator: ${chosen.description}`)
  }
  return chosen
}

/** `wrk debian/4.1.0-3+b2 [epoll] …` → `wrk debian/4.1.0-3+b2`; undefined when wrk is not there. */
function readWrkVersion(): string | undefined {
  const result = spawnSync('wrk', ['-v'], { encoding: 'utf8' })
  if (result.error) return undefined
  return /^(wrk \S+)/.exec(result.stdout)?.[1] ?? 'wrk'
}
