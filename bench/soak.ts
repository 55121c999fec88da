/**
 * `npm run bench:soak`: mixed traffic at full speed against the built mock for a while (60 s by
 * default), counting every answer the contract does not allow and watching the mock's memory.
 * Passes with no unexpected answer, no connection error, the state's user count as the answers say,
 * and an RSS at the end within 10 % of the RSS after the warm-up; exits 1 otherwise.
 *
 * Run: npm run bench:soak   (= npm run build && tsx bench/soak.ts; writes the Soak section of BENCHMARKS.md)
 *      npx tsx bench/soak.ts --duration 15 --dry-run   (try the harness; leaves BENCHMARKS.md alone)
 */
import { parseArgs } from 'node:util'
import { describeContention, describeMachine } from './describe-machine.js'
import { median } from './load.js'
import { DisposablePool } from './disposable-pool.js'
import { traceMemory, type MemorySample } from './memory-trace.js'
import { OWNER } from './mock-http.js'
import { readProcessCpuMs } from './process-cpu.js'
import { log } from './progress.js'
import { checkSoak, renderSoak, type SoakResult, type SoakSettings } from './soak-report.js'
import type { SoakWorld } from './soak-requests.js'
import { writeSoakSection } from './soak-section.js'
import { SoakTally } from './soak-tally.js'
import { runSoakTraffic } from './soak-traffic.js'
import { startSlowFlood } from './slow-flood.js'
import { mockLaunch, startServer } from './server-process.js'
import { SOAK_WEBHOOK_SECRET, startWebhookSink } from './webhook-sink.js'

/** Disposable users ready before the traffic starts. */
const INITIAL_POOL = 300

/**
 * RSS moves by ±10 % from one second to the next as V8 fills and empties its young generation, so
 * "after the warm-up" and "at the end" are each the median of the samples of a 5 s window.
 */
const RSS_WINDOW_SECONDS = 5

async function main(): Promise<void> {
  const { settings, dryRun } = readSettings()
  const machine = describeMachine()
  const contentionAtStart = describeContention()
  // Every change of the traffic is also an event, delivered to a slow receiver that refuses some.
  const sink = await startWebhookSink()
  const mock = await startServer(
    mockLaunch(['--port', '0', '--webhook', sink.url, '--webhook-secret', SOAK_WEBHOOK_SECRET]),
  )
  try {
    const usersAtStart = await countUsers(mock.url)
    const world = await prepareWorld(mock.url)
    const tally = new SoakTally()
    const trace = traceMemory(mock.pid)
    const serverCpuBefore = await readProcessCpuMs(mock.pid)
    const clientCpuBefore = process.cpuUsage()
    log(
      `soak: ${settings.seconds} s, ${settings.connections} connections, warm-up ${settings.warmupSeconds} s, ${settings.slowClients} slow clients beside them`,
    )
    const flood = startSlowFlood(mock.url, settings.slowClients)
    const traffic = await runSoakTraffic({
      url: mock.url,
      ...settings,
      world,
      tally,
      onWarm: () => log('soak: warm-up over'),
    })
    const slowClients = await flood.stop()
    // The deliveries still queued when the traffic ends are not waited for: the queue is bounded.
    const webhooks = await sink.stop()
    await trace.sampleNow()
    trace.stop()
    const serverCpuAfter = await readProcessCpuMs(mock.pid)
    const clientCpu = process.cpuUsage(clientCpuBefore)
    await world.pool.settled()
    const afterWarmupMiB = medianRss(trace.samples, settings.warmupSeconds, settings.warmupSeconds + RSS_WINDOW_SECONDS)
    const endMiB = medianRss(trace.samples, traffic.seconds - RSS_WINDOW_SECONDS, Infinity)
    const expectedMax = usersAtStart + world.pool.created - world.pool.deletedCount
    const result: SoakResult = {
      settings,
      machine,
      contention: { atStart: contentionAtStart, atEnd: describeContention() },
      traffic,
      tally,
      rss: { afterWarmupMiB, endMiB, samples: trace.samples },
      // A DELETE cut off by the end may have deleted its user without the soak learning it.
      users: { atEnd: await countUsers(mock.url), expectedMin: expectedMax - traffic.unansweredDeletes, expectedMax },
      disposables: { created: world.pool.created, deleted: world.pool.deletedCount },
      serverCpuMs:
        serverCpuBefore === undefined || serverCpuAfter === undefined ? undefined : serverCpuAfter - serverCpuBefore,
      clientCpuMs: (clientCpu.user + clientCpu.system) / 1000,
      refillError: world.pool.refillError,
      slowClients,
      webhooks,
    }
    const section = renderSoak(result)
    console.log(`\n${section}`)
    if (dryRun) log('soak: --dry-run, so BENCHMARKS.md was left alone.')
    else {
      await writeSoakSection(section)
      log('soak: wrote the Soak section of BENCHMARKS.md')
    }
    const missed = checkSoak(result).filter((check) => !check.pass)
    if (missed.length > 0) {
      log(`soak: MISS: ${missed.map((check) => `${check.figure}: ${check.measured} (goal ${check.goal})`).join('; ')}`)
      process.exitCode = 1
    }
  } finally {
    await mock.stop()
  }
}

/** The median RSS of the samples taken from `from` to `to` seconds into the traffic. */
function medianRss(samples: MemorySample[], from: number, to: number): number {
  const inWindow = samples.filter((sample) => sample.atSeconds >= from && sample.atSeconds <= to)
  if (inWindow.length === 0) throw new Error(`No RSS sample of the mock from ${from} to ${to} s (/proc is Linux only).`)
  return median(inWindow.map((sample) => sample.rssMiB))
}

function readSettings(): { settings: SoakSettings; dryRun: boolean } {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '60' },
      warmup: { type: 'string', default: '15' },
      connections: { type: 'string', default: '10' },
      // Four times the mock's connection cap (src/http/connection-guard.ts).
      'slow-clients': { type: 'string', default: '2048' },
      'dry-run': { type: 'boolean', default: false },
    },
  })
  const seconds = positiveInteger('--duration', values.duration)
  const warmupSeconds = positiveInteger('--warmup', values.warmup)
  if (warmupSeconds + 2 * RSS_WINDOW_SECONDS > seconds) {
    throw new Error(`--duration must be at least --warmup (${warmupSeconds}) + ${2 * RSS_WINDOW_SECONDS} s.`)
  }
  return {
    settings: {
      seconds,
      warmupSeconds,
      connections: positiveInteger('--connections', values.connections),
      slowClients: positiveInteger('--slow-clients', values['slow-clients']),
    },
    dryRun: values['dry-run'],
  }
}

function positiveInteger(option: string, raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`${option} must be a positive integer, not "${raw}".`)
  return Number(raw)
}

/** Seeded users to read, a user of another organization, and disposable users to change. */
async function prepareWorld(baseUrl: string): Promise<SoakWorld> {
  const list = await getJson<{ data: Array<{ id: string }> }>(`${baseUrl}/api/users?limit=100`, OWNER)
  const foreign = await getJson<{ data: { id: string } }>(`${baseUrl}/api/users/me`, {
    authorization: 'Bearer globex-admin-token',
  })
  const pool = new DisposablePool(baseUrl)
  await pool.fill(INITIAL_POOL)
  return { pool, memberIds: list.data.map((user) => user.id), foreignId: foreign.data.id }
}

async function countUsers(baseUrl: string): Promise<number> {
  return (await getJson<{ users: unknown[] }>(`${baseUrl}/__mock/state`)).users.length
}

async function getJson<T>(url: string, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(url, { headers })
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status}\n${await response.text()}`)
  return (await response.json()) as T
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
