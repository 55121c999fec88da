import type { WebhookSinkResult } from './webhook-sink.js'
import type { FloodResult } from './slow-flood.js'
import { formatCount } from './check-goals.js'
import { markdownTable } from './markdown-table.js'
import type { MemorySample } from './memory-trace.js'
import type { Machine } from './report.js'
import type { SoakTally } from './soak-tally.js'
import type { TrafficRun } from './soak-traffic.js'

export interface SoakSettings {
  seconds: number
  warmupSeconds: number
  connections: number
  /** Slow clients held open beside the traffic. */
  slowClients: number
}

/** What `npm run bench:soak` measured. */
export interface SoakResult {
  settings: SoakSettings
  machine: Machine
  contention: { atStart: string; atEnd: string }
  traffic: TrafficRun
  tally: SoakTally
  /** Medians of the samples in the 5 s after the warm-up and in the last 5 s. */
  rss: { afterWarmupMiB: number; endMiB: number; samples: MemorySample[] }
  /** Users in `GET /__mock/state` at the end, and the range the answered requests allow. */
  users: { atEnd: number; expectedMin: number; expectedMax: number }
  disposables: { created: number; deleted: number }
  serverCpuMs: number | undefined
  clientCpuMs: number
  refillError: string | undefined
  /** The flood of slow clients beside the traffic. */
  slowClients: FloodResult
  /** The events of the traffic's changes, as a slow receiver got them. */
  webhooks: WebhookSinkResult
}

/** RSS at the end may exceed RSS after the warm-up by this share at most. */
export const RSS_GROWTH_LIMIT = 0.1

export interface SoakCheck {
  figure: string
  measured: string
  goal: string
  pass: boolean
}

export function checkSoak(result: SoakResult): SoakCheck[] {
  const { tally, traffic, rss, users } = result
  const growth = rss.endMiB / rss.afterWarmupMiB - 1
  return [
    {
      figure: 'Answers whose status the contract does not allow for their request',
      measured: formatCount(tally.unexpected),
      goal: '0',
      pass: tally.unexpected === 0,
    },
    {
      figure: 'Connection errors and timeouts',
      measured: formatCount(traffic.errors + traffic.timeouts),
      goal: '0',
      pass: traffic.errors + traffic.timeouts === 0,
    },
    {
      figure: `RSS of the mock at the end / after the ${result.settings.warmupSeconds} s warm-up (medians of 5 s)`,
      measured: `${rss.endMiB.toFixed(1)} / ${rss.afterWarmupMiB.toFixed(1)} MiB (${signed(growth * 100)} %)`,
      goal: `≤ +${RSS_GROWTH_LIMIT * 100} %`,
      pass: growth <= RSS_GROWTH_LIMIT,
    },
    {
      figure: 'Webhook deliveries whose signature does not verify',
      measured: formatCount(result.webhooks.badSignatures),
      goal: '0',
      pass: result.webhooks.badSignatures === 0 && result.webhooks.events > 0,
    },
    {
      figure: 'Users in the state at the end (seed + created − deleted)',
      measured: formatCount(users.atEnd),
      goal:
        users.expectedMin === users.expectedMax
          ? formatCount(users.expectedMax)
          : `${formatCount(users.expectedMin)}–${formatCount(users.expectedMax)}`,
      pass: users.atEnd >= users.expectedMin && users.atEnd <= users.expectedMax,
    },
  ]
}

export function renderSoak(result: SoakResult): string {
  const { settings, machine, tally, traffic } = result
  const checks = checkSoak(result)
  const overall = tally.percentiles()
  const total = tally.total()
  const busy = (ms: number | undefined): string =>
    ms === undefined ? 'not measured' : `${((ms / (traffic.seconds * 1000)) * 100).toFixed(0)} % of a core`
  return [
    `## Soak: ${settings.seconds} s of mixed traffic`,
    '',
    `Measured on ${machine.date} (UTC) with \`npm run bench:soak\`${settings.seconds === 60 ? '' : ` (\`--duration ${settings.seconds}\`)`}: ${settings.connections} connections at full speed, no pipelining, against the built mock started as users start it (\`node dist/bin/users-api-kit.js mock --quiet --port 0\`, default fixtures and seed).`,
    `Machine: ${machine.cpus} CPUs (${machine.cpuModel}), Node ${machine.node}, ${machine.os}. Other work on it: ${result.contention.atStart} at the start, ${result.contention.atEnd} at the end. Code: ${machine.code}.`,
    '',
    markdownTable(
      ['Check', 'Measured', 'Goal', 'Result'],
      checks.map((check) => [check.figure, check.measured, check.goal, check.pass ? 'PASS' : 'MISS']),
    ),
    '',
    checks.every((check) => check.pass)
      ? '**PASS**: every check is met.'
      : `**MISS**: ${checks
          .filter((check) => !check.pass)
          .map((check) => check.figure)
          .join('; ')}.`,
    ...unexpectedLines(tally),
    '',
    `Beside the traffic, ${formatCount(result.slowClients.target)} slow clients (half a request line, then a byte a second; reopened a moment after the mock closes one): ${formatCount(result.slowClients.opened)} connections opened, ${formatCount(result.slowClients.closedByMock)} closed by the mock (past its cap of 512 connections it closes the oldest that has not sent a whole request; its 10 s headers timeout closes the slowest), ${formatCount(result.slowClients.heldAtEnd)} held open at the end.`,
    '',
    `Webhooks: every PATCH and DELETE of the traffic is an event, sent to a receiver that answers each delivery after ${result.webhooks.delayMs} ms and refuses every ${result.webhooks.refuseEvery}th event's first delivery with a 500. It got ${formatCount(result.webhooks.events)} events in ${formatCount(result.webhooks.deliveries)} deliveries (${formatCount(result.webhooks.refused)} refused, then retried), ${formatCount(result.webhooks.badSignatures)} with a bad signature; from the change to the event's first arrival p50 ${formatCount(result.webhooks.latencyMs.p50)} ms, p99 ${formatCount(result.webhooks.latencyMs.p99)} ms. The receiver's pace (4 deliveries in flight × ${result.webhooks.delayMs} ms) is below the traffic's rate of changes: the mock's queue for it stays full (1,000 deliveries) and the events beyond are dropped and logged, which is what bounds the mock's memory; the latency is mostly that queue.`,
    '',
    `${formatCount(total)} requests answered in ${traffic.seconds.toFixed(1)} s (${formatCount(total / traffic.seconds)}/s); ${formatCount(traffic.unanswered)} more were sent and never answered: each connection's last, cut off by the end, and the one autocannon writes on a connection the mock has just closed (its 400 to a body that is not JSON closes the connection). Response times after the warm-up, every kind: p50 ${overall.p50.toFixed(2)} ms, p99 ${overall.p99.toFixed(2)} ms. Server CPU: ${busy(result.serverCpuMs)}; load generator: ${busy(result.clientCpuMs)}.`,
    '',
    markdownTable(
      ['Request', 'Expected', 'Requests', 'Answers', 'Unexpected', 'p50 ms', 'p99 ms'],
      [...tally.kinds.values()].map((kind) => {
        const count = [...kind.statuses.values()].reduce((sum, value) => sum + value, 0)
        const { p50, p99 } = tally.percentiles(kind.kind)
        return [
          kind.kind,
          String(kind.expected),
          formatCount(count),
          [...kind.statuses.entries()].map(([status, times]) => `${status} × ${formatCount(times)}`).join(', '),
          formatCount(count - (kind.statuses.get(kind.expected) ?? 0)),
          p50.toFixed(2),
          p99.toFixed(2),
        ]
      }),
    ),
    '',
    `RSS of the mock (MiB) during the run: ${traceLine(result.rss.samples, settings.seconds)}.`,
    '',
    `Disposable users: ${formatCount(result.disposables.created)} created through \`POST /__mock/target?disposable=100\` whenever fewer than 100 were free, ${formatCount(result.disposables.deleted)} deleted; the state held ${formatCount(result.users.atEnd)} users at the end.${fallbackLine(tally)}${result.refillError ? ` A refill failed: ${result.refillError}.` : ''}`,
    '',
    '### How the soak measures',
    '',
    `- Each connection sends the same cycle of 20 requests over and over (bench/soak-requests.ts): lists by page and by role, searches, reads by id, \`/me\` with each active role's token, four renames and one delete of disposable users, a second DELETE of a user deleted earlier, and one bad request of each kind (bad or missing token, bad list query, unknown or other-organization id, bad PATCH body, PATCH as text/plain). Each request is built as it is sent, and its answer is compared with the one status the contract allows for it.`,
    '- The disposable users are leased to one request at a time, so every answer is known beforehand: a leased user exists (PATCH 200, DELETE 204), a deleted one is gone (DELETE 404). The pool is refilled from `/__mock/target` when it runs low, never by `POST /__mock/reset`: a reset during traffic would turn the answers to requests in flight into 404s nobody could predict. Creating and deleting users at the same rate keeps the state at about the same size, so a growing RSS means memory the mock does not give back.',
    `- RSS is VmRSS of the mock's process from /proc/PID/status, sampled every 0.5 s. It moves by up to ±10 % from one second to the next as V8 fills and empties its young generation, and it climbs for the first ~15 s while V8 grows its heap to the load, so the check compares medians: of the samples from ${settings.warmupSeconds} to ${settings.warmupSeconds + 5} s, and of those of the last 5 s. Response times (p50, p99: nearest rank, from just before autocannon writes a request to its answer) cover the requests after the warm-up; the counts cover the whole run. CPU is user + system time from /proc/PID/stat and process.cpuUsage().`,
  ].join('\n')
}

function unexpectedLines(tally: SoakTally): string[] {
  if (tally.unexpectedSamples.length === 0) return []
  return [
    '',
    'First unexpected answers:',
    '',
    ...tally.unexpectedSamples.map(
      (sample) => `- ${sample.kind}: \`${sample.request}\` → ${sample.status} \`${sample.body.replace(/`/g, "'")}\``,
    ),
  ]
}

function fallbackLine(tally: SoakTally): string {
  const fallbacks = [...tally.kinds.values()].filter((kind) => kind.fallbacks > 0)
  if (fallbacks.length === 0) return ''
  return ` Stand-ins when no user was at hand: ${fallbacks.map((kind) => `${formatCount(kind.fallbacks)} × ${kind.kind}`).join(', ')}.`
}

/** One sample per tenth of the run. */
function traceLine(samples: MemorySample[], seconds: number): string {
  const sorted = [...samples].sort((a, b) => a.atSeconds - b.atSeconds)
  const step = Math.max(1, seconds / 10)
  const shown: MemorySample[] = []
  for (const sample of sorted) {
    const last = shown.at(-1)
    if (!last || sample.atSeconds - last.atSeconds >= step - 0.5) shown.push(sample)
  }
  const final = sorted.at(-1)
  if (final && shown.at(-1) !== final) shown.push(final)
  return shown.map((sample) => `${sample.atSeconds.toFixed(0)} s ${sample.rssMiB.toFixed(1)}`).join(', ')
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(1)}`
}
