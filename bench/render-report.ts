import { PINNING } from './server-process.js'
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
    `Machine: ${machine.cpus} CPUs (${machine.cpuModel}), Node ${machine.node}, ${machine.os}; shared and noisy, so speed figures are ratios to a bare Fastify server measured in the same run. Other work on it: ${report.contention.atStart} at the start, ${report.contention.atEnd} at the end. Code: ${machine.code}. Load generator: ${report.loadGenerator.description}. Cores: ${PINNING.description}.`,
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
        ['mock (nothing cached: every start is a first start)', report.coldStart.mock],
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
      : `Start with faker generating the users (spawn → listening): ${(large.seedingMs / 1000).toFixed(2)} s. First \`?search=ab&limit=20\` after start: ${large.firstQueryMs?.toFixed(1)} ms.`,
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
    '## 5. The contract suite against a running mock',
    '',
    ...renderContractSuite(report.contractSuite),
    '',
    ...renderMswBundle(report.mswBundle),
    '',
    ...renderProxy(report),
    '',
    ...renderMswInProcess(report),
    '',
    '## How measured',
    '',
    `- Every server runs in its own child process (\`node dist/bin/users-api-kit.js mock --quiet …\`, or \`node bench/bare-server.js\`). ${loadGeneratorLine(report)} ${settings.connections} connections, no pipelining, \`Authorization: Bearer owner-token\`.`,
    '- The bare server is Fastify 5 with no logger and one GET route per path that sends the exact JSON text the mock answered for that request (fetched from the mock first and checked equal before any load). So the ratio is what the mock costs over Fastify itself: authentication, routing, query validation, the store, serialization, CORS and its logger. The "default request logs" mock is started without `--quiet` and its stdout goes to /dev/null: not a terminal, so it writes its request log as JSON lines; the figure is the cost of writing the log, not of a terminal showing it. It starts when its row comes (a Node 22 server idle for a minute stays up to a third slower, bare Fastify too; bare Fastify never idles that long in part 1).',
    `- Each run is a ${settings.warmupSeconds} s warm-up (discarded) then ${settings.seconds} s measured; part 1 alternates bare, mock${settings.rounds > 1 ? ', bare, mock' : ''} per request and pools the rounds. requests/s = answered requests / measured seconds; p50 and p99 are nearest-rank: ${report.loadGenerator.name === 'wrk' ? "from wrk's microsecond histogram (its percentiles at every 0.1 %, pooled across rounds)" : "over every 2xx response time (autocannon's own histogram rounds to whole milliseconds)"}.`,
    "- Cold start: a free port is chosen first, the server is spawned on it, and the bench fetches `/api/users/me` every 2 ms until a 200 (a refused connection fails at once); runs alternate which server goes first; ratios are of the medians. The mock starts with the default fixtures and seed (3 organizations × 50 generated users). It caches nothing between starts: the validators, the operation table and the default seed's state are generated by `npm run build` (scripts/generate-artifacts.ts), so every start is a first start after a fresh install.",
    `- CPU: user + system time of the server process from /proc/PID/stat (10 ms ticks) and of the load generator (${report.loadGenerator.name === 'wrk' ? "wrk's /proc/self/stat at its end" : 'process.cpuUsage() of this process'}), over each measured run. "server CPU µs/request" is the cost of one request whatever the contention; a load generator near 100 % of a core means it, not the server, set the pace, and the requests/s ratio then understates the difference between the servers.`,
    '- Memory: VmRSS (and VmHWM, the peak) of the mock process from /proc/PID/status, read after its load runs.',
    `- Part 4: a temporary fixture file holds only the first organization of fixtures/default.json and its named users; the mock starts with \`--fixtures FILE --users ${large.users}\`, so faker generates the users at start. Start time is spawn → the banner's API line on stdout.`,
    `- Part 7: the mock (\`--quiet\`) and \`users-api-kit proxy --upstream MOCK\` each in its own process; each request alternately to the mock and to the proxy, ${settings.rounds} round(s), the same load generator and connections as part 1. The proxy forwards every request and judges every exchange (verify's response checks, the request against the document, the rules of docs/proxy.md); its answers are checked equal to the mock's before any load. The CPU of the proxied rows is the proxy process's alone.`,
    `- Part 6: esbuild ${report.mswBundle.esbuild} bundles \`export { createMockHandlers } from '${report.mswBundle.entry}'\` (what \`users-api-kit/msw\` resolves to) with \`bundle, minify, format: 'esm', platform: 'browser', splitting\`, msw external (the app's peer dependency). The default seed's size is the entry chunk and the chunks it imports statically; the chunks behind its dynamic imports (faker, for a custom seed) are given apart. Each file gzipped on its own (zlib's default level), 1 KB = 1,000 bytes.`,
  ].join('\n')
}

function renderProxy({ proxy, settings }: Report): string[] {
  const { counts, memory } = proxy
  return [
    `## 7. The proxy's overhead, ${settings.connections} connections`,
    '',
    markdownTable(
      ['Request', 'To', 'requests/s', 'p50 ms', 'p99 ms', 'proxied / direct', 'added p50 ms', 'CPU µs/request', 'CPU'],
      proxy.rows.flatMap((row) => [
        [row.label, 'the mock', ...loadCells(row.direct), '—', '—', ...cpuCells(row.direct).slice(0, 2)],
        [
          row.label,
          'the proxy → the mock',
          ...loadCells(row.proxied),
          (row.proxied.requestsPerSecond / row.direct.requestsPerSecond).toFixed(2),
          (row.proxied.p50 - row.direct.p50).toFixed(2),
          ...cpuCells(row.proxied).slice(0, 2),
        ],
      ]),
    ),
    '',
    `CPU is the mock's process for the direct rows, the proxy's alone for the proxied ones. The proxy judged ${formatCount(counts.judged)} exchanges: ${counts.violations} violations, ${counts.unchecked} not checked. Its memory after the runs: ${memory ? `${memory.rssMiB.toFixed(0)} MiB RSS, ${memory.peakMiB.toFixed(0)} MiB peak` : 'not measured'}.`,
  ]
}

function renderMswInProcess({ mswInProcess }: Report): string[] {
  const rows = [
    ['GET /api/users/me', 'me'],
    ['GET /api/users?limit=20', 'page'],
  ] as const
  return [
    '## 8. In process: a fetch under msw/node',
    '',
    markdownTable(
      [
        'Request',
        'body bytes',
        'hand-written msw handler, µs/fetch',
        'users-api-kit/msw, µs/fetch',
        'kit / hand',
        'rounds',
      ],
      rows.map(([label, name]) => {
        const { kit, hand } = mswInProcess.results[name]
        return [
          label,
          formatCount(mswInProcess.bytes[name]),
          median(hand).toFixed(1),
          median(kit).toFixed(1),
          (median(kit) / median(hand)).toFixed(2),
          kit.map((value, index) => `${(value / (hand[index] ?? value)).toFixed(2)}`).join(', '),
        ]
      }),
    ),
    '',
    "What a frontend's unit test pays per call: `await fetch(url)` and its body read, one after another, in one Node process (bench/msw-fetch-loop.mjs, on the servers' core) with msw/node's `setupServer`, answered either by `createMockHandlers()` of the built package or by an `http.get` handler that returns the very bytes the kit answered (no token, query or state: the plainest msw handler). The two alternate in rounds after a warm-up each; figures are medians of the rounds, and the last column gives each round's ratio.",
  ]
}

function loadGeneratorLine({ loadGenerator }: Report): string {
  return loadGenerator.name === 'wrk'
    ? 'The load generator is wrk, in its own process, one thread:'
    : "The load generator is autocannon, in the bench's own process (wrk was not used: it is the more efficient one; install it with your system's package manager, e.g. `apt-get install wrk`):"
}

function renderMswBundle(bundle: Report['mswBundle']): string[] {
  const kb = (bytes: number): string => `${(bytes / 1000).toFixed(1)} KB`
  return [
    '## 6. Browser bundle of users-api-kit/msw',
    '',
    markdownTable(
      ['Loaded', 'files', 'minified', 'gzipped'],
      [
        ['with the default seed: the entry chunk and its static imports', bundle.initial],
        ['only for a custom seed: the dynamically imported chunks (faker)', bundle.faker],
      ].map(([label, size]) => {
        const { files, bytes, gzipBytes } = size as Report['mswBundle']['initial']
        return [label as string, String(files), kb(bytes), kb(gzipBytes)]
      }),
    ),
    '',
    `Largest sources in the default seed's chunks (minified): ${bundle.largestInputs.map((input) => `${input.path} ${kb(input.bytes)}`).join(', ')}.`,
  ]
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

function renderContractSuite(suite: Report['contractSuite']): string[] {
  const seconds = (values: number[]): string => values.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')
  return [
    `\`users-api-kit verify --base-url\` against a mock started before the clock (default seed, a fresh one each run), spawn of verify → its exit, ${suite.wallMs.length} run(s) of each, alternated. The whole suite: ${seconds(suite.wallMs)} (${suite.checks}); its first line of output after ${seconds(suite.firstLineMs)}. \`--only core\`: ${seconds(suite.coreWallMs)} (${suite.coreChecks}). It includes vitest's own start; the suite runs as the JavaScript the build made of it, the webhook checks in a thread of their own beside the rest.`,
  ]
}
