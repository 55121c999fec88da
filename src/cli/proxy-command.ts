import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { DEFAULT_MAX_RESPONSE_BYTES } from '../http/response-limits.js'
import { escapeControlCharacters } from '../text/escape-control-characters.js'
import { formatFindingLine, type FindingEntry } from '../proxy/finding-entry.js'
import type { ProxyCounts } from '../proxy/finding-log.js'
import { startProxy, type RunningProxy } from '../proxy/start-proxy.js'
import { openUpstream } from '../proxy/upstream.js'
import { writeProxyReports } from '../proxy/write-proxy-reports.js'
import { parseIntegerOption } from './parse-integer-option.js'
import { isLoopbackName } from '../http/loopback-guard.js'
import { readCommandArgs } from './read-command-args.js'
import { carryOnWithoutOutput } from './output-errors.js'
import { REPORT_FILES } from './report-files.js'
import { DEFAULT_TIMEOUT_MS } from './shared-options.js'
import { plural } from '../text/plural.js'

const PROXY_USAGE = `users-api-kit proxy — the contract checked on real traffic

Usage: users-api-kit proxy --upstream URL [options]

Point your app (or your end-to-end tests) at the proxy instead of the backend: every request goes to
the upstream unchanged, every answer comes back unchanged, and each exchange is checked against the
document and the rules of docs/contract.md that one exchange or a sequence of them can show (docs/proxy.md).

  --upstream URL      The backend: http(s)://host:port, with its path prefix if it has one. The only
                      place the proxy connects to: a client cannot choose another
  --port N            Port to listen on (default 4020; 0 = any free port)
  --host H            Address to bind (default 127.0.0.1; 0.0.0.0 opens the proxy to your network)
  --spec FILE         The OpenAPI document to hold the backend to (default openapi/users.yaml)
  --report DIR        At exit, write users-api-kit-proxy.xml (JUnit) and .json into DIR (made if missing)
  --fail-on-violation Exit 1 when the backend broke the contract (for CI: run the end-to-end tests
                      through the proxy, then stop it)
  --request-timeout MS
                      Per exchange, to the answer's last byte (default 10000): past it the proxy
                      answers 504 itself, or cuts an answer already under way, and reports it
  --max-response-bytes N
                      Per answer, after decompression (default 1048576, 1 MiB): a longer one is still
                      forwarded whole, and reported as not checked
  -h, --help          This help

Violations are printed on stderr as they happen, one line each (tokens masked); the live page is
/__proxy/ on the proxy, the same as JSON at /__proxy/violations. Ctrl-C (or SIGTERM) stops it, writes
the reports and prints the totals.

Exit codes: 0 stopped (no violation, or without --fail-on-violation), 1 with --fail-on-violation when
the backend broke the contract, 2 the proxy could not start.`

/** Requests in flight get this long to be judged once the proxy is asked to stop. */
const STOP_GRACE_MS = 5_000

export type ProxyArgs = ReturnType<typeof parseProxyArgs>

function parseProxyArgs(args: string[]) {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      upstream: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      spec: { type: 'string' },
      report: { type: 'string' },
      'fail-on-violation': { type: 'boolean' },
      'request-timeout': { type: 'string' },
      'max-response-bytes': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (!values.help && values.upstream === undefined)
    throw new Error('--upstream URL is required: the backend to check.')
  // Read now, so that a bad URL is a usage error (exit 2) before anything listens.
  if (values.upstream !== undefined) openUpstream(values.upstream).close()
  return {
    help: values.help ?? false,
    upstream: values.upstream ?? '',
    port: parseIntegerOption('--port', values.port, 0, 65_535) ?? 4020,
    host: values.host ?? '127.0.0.1',
    spec: values.spec,
    report: values.report,
    failOnViolation: values['fail-on-violation'] ?? false,
    timeoutMs: parseIntegerOption('--request-timeout', values['request-timeout'], 1, 300_000) ?? DEFAULT_TIMEOUT_MS,
    maxResponseBytes:
      parseIntegerOption('--max-response-bytes', values['max-response-bytes'], 1024, 1024 * 1024 * 1024) ??
      DEFAULT_MAX_RESPONSE_BYTES,
  }
}

/**
 * `users-api-kit proxy`: runs until SIGINT or SIGTERM, then writes the reports and resolves to the exit
 * code; 2 at once when it cannot start.
 */
export async function runProxyCommand(args: string[]): Promise<number> {
  const options = readCommandArgs('proxy', PROXY_USAGE, parseProxyArgs, args)
  if (typeof options === 'number') return options
  carryOnWithoutOutput('proxy')
  const startedAt = new Date()
  let proxy: RunningProxy
  try {
    proxy = await startProxy({
      upstream: options.upstream,
      port: options.port,
      host: options.host,
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxResponseBytes,
      ...(options.spec === undefined ? {} : { spec: options.spec }),
      onFinding: printFinding,
    })
  } catch (error) {
    console.error(`users-api-kit proxy: cannot start.\n${describeStartError(error, options)}`)
    return 2
  }
  console.log(formatBanner(proxy, options))
  if (!isLoopbackName(options.host)) {
    console.warn(
      `Warning: the proxy is open to your network (--host ${options.host}): anyone who reaches it sends requests to ${proxy.upstream}, and /__proxy/ shows the exchanges it checked (tokens masked, user data not).`,
    )
  }
  await stopSignal()
  return stop(proxy, options, startedAt)
}

/** Violations and answers not checked, one line each on stderr; the clients' own mistakes are counted only. */
function printFinding(entry: FindingEntry): void {
  if (entry.kind !== 'client') console.error(`users-api-kit proxy: ${formatFindingLine(entry)}`)
}

function formatBanner(proxy: RunningProxy, options: ProxyArgs): string {
  const reports = options.report === undefined ? '' : ` and writes the reports into ${resolve(options.report)}`
  return [
    `users-api-kit proxy: ${proxy.url} → ${escapeControlCharacters(proxy.upstream)}`,
    '',
    `  Point your app at  ${proxy.url}  (instead of ${escapeControlCharacters(proxy.upstream)})`,
    `  Live findings      ${proxy.url}/__proxy/`,
    '',
    `Violations of docs/contract.md are printed here as they happen. Ctrl-C stops it${reports}.`,
  ].join('\n')
}

function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
      // A second Ctrl-C stops at once, reports or not.
      process.once('SIGINT', () => process.exit(130))
      resolve(signal)
    }
    process.on('SIGINT', onSignal)
    process.on('SIGTERM', onSignal)
  })
}

/** Judges what is in flight (for a while), closes, writes the reports, prints the totals: the exit code. */
async function stop(proxy: RunningProxy, options: ProxyArgs, startedAt: Date): Promise<number> {
  await Promise.race([proxy.settled(), new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())])
  await Promise.race([proxy.close(), new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())])
  let exitCode = options.failOnViolation && proxy.log.counts.violations > 0 ? 1 : 0
  if (options.report !== undefined) {
    try {
      const names = { junit: REPORT_FILES.proxyJunit, json: REPORT_FILES.proxyJson }
      const run = { upstream: proxy.upstream, startedAt, endedAt: new Date(), log: proxy.log }
      for (const path of await writeProxyReports(options.report, names, run)) console.log(`Report written to ${path}`)
    } catch (error) {
      console.error(`users-api-kit proxy: the reports could not be written: ${(error as Error).message}`)
      exitCode = 2
    }
  }
  console.log(formatTotals(proxy.log.counts))
  return exitCode
}

function formatTotals(counts: ProxyCounts): string {
  const lines = [
    `users-api-kit proxy: ${plural(counts.exchanges, 'exchange')}, ${counts.judged} of the users API checked: ${plural(counts.violations, 'violation')}, ${counts.client} of the clients' own mistakes, ${counts.unchecked} not checked.`,
  ]
  const broken = Object.entries(counts.checks).filter(([, check]) => check.kind === 'violation')
  for (const [name, check] of broken.sort((a, b) => b[1].count - a[1].count)) {
    const sentences = check.sentences.length > 0 ? ` (docs/contract.md ${check.sentences.join(', ')})` : ''
    lines.push(`  ✗ [${name}] ${check.count}× ${check.rule}${sentences}`)
  }
  return lines.join('\n')
}

function describeStartError(error: unknown, options: ProxyArgs): string {
  const { code, message } = error as { code?: string; message?: string }
  if (code === 'EADDRINUSE')
    return `Port ${options.port} is in use. Stop what uses it, or pick another: --port ${options.port + 1} (or --port 0 for any free port).`
  if (code === 'EADDRNOTAVAIL')
    return `Cannot bind ${options.host}: this machine has no such address. Try --host 127.0.0.1.`
  return escapeControlCharacters(message ?? String(error), { multiline: true })
}
