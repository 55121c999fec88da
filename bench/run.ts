/**
 * `npm run bench`: the mock's benchmark. The machine it runs on is shared and noisy, so every speed
 * figure is a ratio to a bare Fastify server measured in the same run, and every server runs in its own
 * child process. The load generator is wrk where it is installed (`apt-get install wrk`), else
 * autocannon in this process (load-generator.ts); the report gives its CPU either way.
 *
 * Run: npm run bench   (= npm run build && tsx bench/run.ts)
 *      npx tsx bench/run.ts --quick   (short runs to try the harness; leaves BENCHMARKS.md alone)
 *      npx tsx bench/run.ts --print   (full runs, printed only: e.g. on another Node, for BENCHMARKS.md's notes)
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { writeBenchmarksFile } from './benchmarks-file.js'
import { compareColdStarts } from './cold-start.js'
import { measureContractSuite } from './contract-suite.js'
import { describeContention, describeMachine } from './describe-machine.js'
import { measureLargeOrganization } from './large-organization.js'
import { loadGenerator } from './load-generator.js'
import { measureMswBundle } from './msw-bundle.js'
import { measureMswInProcess } from './msw-in-process.js'
import { measureProxyOverhead } from './proxy-overhead.js'
import { log } from './progress.js'
import type { Report, Settings } from './report.js'
import { compareThroughput } from './throughput.js'

const FULL: Settings = { connections: 10, warmupSeconds: 2, seconds: 5, rounds: 2, coldStarts: 5, suiteRuns: 3 }
const QUICK: Settings = { connections: 10, warmupSeconds: 1, seconds: 2, rounds: 1, coldStarts: 3, suiteRuns: 1 }

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { quick: { type: 'boolean', default: false }, print: { type: 'boolean', default: false } },
  })
  const settings = values.quick ? QUICK : FULL
  const started = performance.now()
  const machine = describeMachine()
  const contentionAtStart = describeContention()
  const scratch = await mkdtemp(join(tmpdir(), 'users-api-kit-bench-'))
  try {
    const bodiesFile = join(scratch, 'bodies.json')
    const generator = loadGenerator()
    log(
      `bench: ${machine.cpus} CPUs, Node ${machine.node}, load from ${generator.description}; per server and request ${settings.rounds} run(s) of ${settings.warmupSeconds} s warm-up + ${settings.seconds} s`,
    )
    // First: it takes a second, needs no quiet machine, and fails early if the build lacks dist/msw.
    log('bench: bundling users-api-kit/msw for the browser…')
    const mswBundle = await measureMswBundle(scratch)
    const { throughput, memory } = await compareThroughput(settings, bodiesFile)
    const coldStart = await compareColdStarts(bodiesFile, settings.coldStarts)
    const large = await measureLargeOrganization(settings, scratch)
    const contractSuite = await measureContractSuite(settings.suiteRuns)
    const proxy = await measureProxyOverhead(settings)
    log('bench: fetch under msw/node, users-api-kit/msw against a hand-written handler…')
    const mswInProcess = await measureMswInProcess(settings)
    const report: Report = {
      settings,
      machine,
      loadGenerator: generator,
      throughput,
      coldStart,
      memory: [memory, ...large.memory],
      large: large.figures,
      contractSuite,
      mswBundle,
      proxy,
      mswInProcess,
      totalSeconds: (performance.now() - started) / 1000,
      contention: { atStart: contentionAtStart, atEnd: describeContention() },
    }
    const write = !values.quick && !values.print
    const text = await writeBenchmarksFile(report, { write })
    console.log(`\n${text}`)
    log(write ? 'bench: wrote BENCHMARKS.md' : 'bench: --quick or --print, so BENCHMARKS.md was left alone.')
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
