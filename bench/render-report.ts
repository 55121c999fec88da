import { checkGoals, formatCount } from './check-goals.js'
import { median, type LoadFigures } from './load.js'
import { markdownTable } from './markdown-table.js'
import type { Report } from './report.js'

export function renderReport(report: Report): string {
  const { machine, settings, large } = report
  const checks = checkGoals(report)
  const missed = checks.filter((check) => !check.pass)
  const failures = [
    ...report.throughput.flatMap((row) => [row.bare.failures, row.mock.failures]),
    ...large.queries.map((query) => query.figures?.failures),
  ].filter(Boolean)
  return [
    `Measured on ${machine.date} (UTC) with \`npm run bench\`, in ${report.totalSeconds.toFixed(0)} s.`,
    `Machine: ${machine.cpus} CPUs (${machine.cpuModel}), Node ${machine.node}, ${machine.os}; shared and noisy, so speed figures are ratios to a bare Fastify server measured in the same run. Other work on it: ${report.contention.atStart} at the start, ${report.contention.atEnd} at the end. Code: ${machine.code}.`,
    '',
    '## Goals',
    '',
    markdownTable(
      ['Figure', 'Measured', 'Goal', 'Result'],
      checks.map((check) => [
        check.figure,
        check.measured,
        check.goal,
        `${check.pass ? 'PASS' : 'MISS'}${check.caveat ? ` (uncertain: ${check.caveat})` : ''}`,
      ]),
    ),
    '',
    missed.length === 0
      ? 'Every goal is met.'
      : `Missed: ${missed.map((check) => `${check.figure} (${check.measured}; goal ${check.goal})`).join('; ')}.`,
    ...(failures.length > 0
      ? ['', `Load runs that saw failures (their figures are suspect): ${failures.join('; ')}.`]
      : []),
    '',
    `## 1. Throughput, ${settings.connections} connections`,
    '',
    markdownTable(
      [
        'Request',
        'Server',
        'requests/s',
        'p50 ms',
        'p99 ms',
        'mock / bare',
        'server CPU µs/request',
        'server CPU',
        'load generator CPU',
      ],
      report.throughput.flatMap((row) => [
        [row.label, 'bare Fastify', ...loadCells(row.bare), '—', ...cpuCells(row.bare)],
        [
          row.label,
          'mock',
          ...loadCells(row.mock),
          (row.mock.requestsPerSecond / row.bare.requestsPerSecond).toFixed(2),
          ...cpuCells(row.mock),
        ],
      ]),
    ),
    '',
    `Per round (mock / bare requests/s): ${report.throughput.map((row) => `${row.label}: ${row.roundRatios.map((ratio) => ratio.toFixed(2)).join(', ')}`).join('; ')}. Server CPU per request, mock / bare: ${report.throughput.map((row) => `${row.label}: ${cpuRatio(row.mock, row.bare)}`).join('; ')}. Response bodies: ${report.throughput.map((row) => `${row.label} ${formatCount(row.bodyBytes)} bytes`).join(', ')}.`,
    '',
    `## 2. Cold start, spawn → first 200 of GET /api/users/me (${report.coldStart.bare.length} runs each)`,
    '',
    markdownTable(
      ['Server', 'median ms', 'min ms', 'max ms', 'mock / bare (medians)', 'runs ms'],
      [
        ['bare Fastify', report.coldStart.bare],
        ['mock, first start after a fresh install (empty start-cache folder)', report.coldStart.mockFirst],
        ['mock, start cache filled by an earlier start', report.coldStart.mockCached],
        ['mock, start cache off: every step computed', report.coldStart.mockUncached],
      ].map(([name, runs]) => {
        const values = runs as number[]
        const ratio = name === 'bare Fastify' ? '—' : (median(values) / median(report.coldStart.bare)).toFixed(2)
        return [
          name as string,
          median(values).toFixed(0),
          Math.min(...values).toFixed(0),
          Math.max(...values).toFixed(0),
          ratio,
          values.map((value) => value.toFixed(0)).join(' '),
        ]
      }),
    ),
    '',
    report.coldStart.cacheWritten
      ? 'The mock wrote its start cache (USERS_API_KIT_CACHE_DIR, pointed at a folder of this run). A fresh install still reads the default document and seed that `npm run build` put in dist/start-cache; with the cache off, the mock parses the YAML, validates the document, compiles the state schema and runs faker.'
      : 'The mock wrote nothing in its start-cache folder (USERS_API_KIT_CACHE_DIR): the first two mock rows measure the same path.',
    '',
    '## 3. Memory of the mock process',
    '',
    markdownTable(
      ['Process', 'RSS MiB', 'peak RSS MiB'],
      report.memory.map((row) => [
        row.label,
        row.rssMiB?.toFixed(0) ?? 'not measured',
        row.peakMiB?.toFixed(0) ?? 'not measured',
      ]),
    ),
    '',
    `## 4. ${formatCount(large.users)} generated users in the caller's organization${large.members === undefined ? '' : ` (${formatCount(large.members)} members)`}`,
    '',
    large.seedingMs === undefined
      ? `**Not measured: the mock was still seeding ${formatCount(large.users)} users ${(large.gaveUpAfterMs ?? 0) / 1000} s after its spawn, and was given up on.**`
      : `Seeding from an empty start cache (spawn → listening): ${(large.seedingMs / 1000).toFixed(2)} s. First \`?search=ab&limit=20\` after start: ${large.firstQueryMs?.toFixed(1)} ms. ${
          large.restartMs !== undefined
            ? `Second start with the same inputs (start cache filled): ${(large.restartMs / 1000).toFixed(2)} s.`
            : large.restartGaveUpAfterMs !== undefined
              ? `Second start: not listening after ${large.restartGaveUpAfterMs / 1000} s, given up on.`
              : ''
        }`,
    '',
    markdownTable(
      [
        'GET /api/users',
        'matches',
        'requests/s',
        'p50 ms',
        'p99 ms',
        'server CPU µs/request',
        'server CPU',
        'load generator CPU',
        'Goal',
      ],
      large.queries.map(({ label, matches, figures, goalP99 }) => [
        label,
        matches === undefined ? '—' : formatCount(matches),
        ...(figures ? [...loadCells(figures), ...cpuCells(figures)] : Array<string>(6).fill('not measured')),
        goalP99 === undefined ? '—' : `p99 < ${goalP99} ms`,
      ]),
    ),
    '',
    '## 5. The contract suite against a fresh mock',
    '',
    `\`users-api-kit verify --base-url\` against a mock just started (default seed), spawn of verify → its exit, ${report.contractSuite.wallMs.length} run(s): ${report.contractSuite.wallMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')} (${report.contractSuite.checks}). It includes vitest's own start and the suite's files running in parallel workers.`,
    '',
    '## How measured',
    '',
    `- Every server runs in its own child process (\`node dist/cli/main.js mock --quiet …\`, or \`node bench/bare-server.js\`); this process only generates load, with autocannon's programmatic API, ${settings.connections} connections, no pipelining, \`Authorization: Bearer owner-token\`.`,
    '- The bare server is Fastify 5 with no logger and one GET route per path that sends the exact JSON text the mock answered for that request (fetched from the mock first and checked equal before any load). So the ratio is what the mock costs over Fastify itself: authentication, routing by the document, query validation, the store, serialization, CORS and its warn-level logger.',
    `- Each run is a ${settings.warmupSeconds} s warm-up (discarded) then ${settings.seconds} s measured; part 1 alternates bare, mock${settings.rounds > 1 ? ', bare, mock' : ''} per route and pools the rounds. requests/s = 2xx responses / measured seconds; p50 and p99 are nearest-rank over every 2xx response time (autocannon's own histogram rounds to whole milliseconds).`,
    '- Cold start: a free port is chosen first, the server is spawned on it, and the bench fetches `/api/users/me` every 2 ms until a 200 (a refused connection fails at once); runs rotate which server goes first; ratios are of the medians. The mock starts with the default fixtures and seed (3 organizations × 50 generated users): with an empty start-cache folder per run (a first start after `npm ci`, which reads dist/start-cache), with a folder an untimed start filled beforehand (a later start), and with the cache off (USERS_API_KIT_CACHE=off).',
    '- CPU: user + system time of the server process from /proc/PID/stat (10 ms ticks) and of the load generator from process.cpuUsage(), over each measured run. "server CPU µs/request" is the cost of one request whatever the contention; a load generator near 100 % of a core means it, not the server, set the pace, and the requests/s ratio then understates the difference between the servers.',
    '- Memory: VmRSS (and VmHWM, the peak) of the mock process from /proc/PID/status, read after its load runs.',
    `- Part 4: a temporary fixture file holds only the first organization of fixtures/default.json and its named users; the mock starts with \`--fixtures FILE --users ${large.users}\`. Seeding time is spawn → the banner's API line on stdout, from an empty start-cache folder; a second start then reuses that folder.`,
  ].join('\n')
}

function loadCells(figures: LoadFigures): string[] {
  return [formatCount(figures.requestsPerSecond), figures.p50.toFixed(2), figures.p99.toFixed(2)]
}

function cpuCells(figures: LoadFigures): string[] {
  const percent = (share: number | undefined): string =>
    share === undefined ? 'not measured' : `${(share * 100).toFixed(0)} %`
  return [
    figures.serverCpuPerRequestUs?.toFixed(1) ?? 'not measured',
    percent(figures.serverBusy),
    percent(figures.clientBusy),
  ]
}

function cpuRatio(mock: LoadFigures, bare: LoadFigures): string {
  if (mock.serverCpuPerRequestUs === undefined || bare.serverCpuPerRequestUs === undefined) return 'not measured'
  return (mock.serverCpuPerRequestUs / bare.serverCpuPerRequestUs).toFixed(2)
}
