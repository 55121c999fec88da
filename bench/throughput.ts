import { writeFile } from 'node:fs/promises'
import { startOnFirst200 } from './first-200.js'
import { measureAlternately, poolRuns } from './load.js'
import type { LoadRun } from './load-run.js'
import { OWNER, fetchText } from './mock-http.js'
import type { Report, Settings } from './report.js'
import { bareLaunch, mockLaunch, readMemory, startServer, type ServerProcess } from './server-process.js'

type MockKind = 'quiet' | 'logging'

/**
 * Part 1's requests, each against the bare server and one mock. `quiet`: `--quiet`, as test runners
 * start it; `logging`: the default request log (JSON lines, as stdout is not a terminal). `?limit=20` is a
 * page of 20 users; `search=an` matches 10 of the 58 members of the first organization with the
 * default seed (kept, without a goal, to compare with earlier runs).
 */
const ROUTES: Array<{ label: string; path: string; mock: MockKind; goal?: number }> = [
  { label: 'GET /api/users/me, --quiet', path: '/api/users/me', mock: 'quiet', goal: 0.9 },
  { label: 'GET /api/users?limit=20, --quiet', path: '/api/users?limit=20', mock: 'quiet', goal: 1.0 },
  { label: 'GET /api/users?limit=20&search=an, --quiet', path: '/api/users?limit=20&search=an', mock: 'quiet' },
  { label: 'GET /api/users/me, default request logs', path: '/api/users/me', mock: 'logging', goal: 0.6 },
]

/** Part 1, and the RSS with 50 users: the mocks and a bare server answering the same bytes, alternated. */
export async function compareThroughput(
  settings: Settings,
  bodiesFile: string,
): Promise<Pick<Report, 'throughput'> & { memory: Report['memory'][number] }> {
  const mocks: Partial<Record<MockKind, ServerProcess>> = {}
  let bare: ServerProcess | undefined
  try {
    mocks.quiet = await startServer(mockLaunch(['--port', '0']))
    const bodies = new Map<string, string>()
    for (const route of ROUTES) bodies.set(route.path, await fetchText(`${mocks.quiet.url}${route.path}`))
    await writeFile(bodiesFile, JSON.stringify(Object.fromEntries(bodies)))
    bare = await startServer(bareLaunch(bodiesFile))
    const throughput: Report['throughput'] = []
    for (const route of ROUTES) {
      // Started when its row comes: bare Fastify, busy in every row, never idles long, and a Node 22 server
      // idle for a minute stays slower (BENCHMARKS.md, "Why Node 22 missed the logs row").
      if (route.mock === 'logging') mocks.logging ??= await startLoggingMock()
      for (const server of [bare, mocks[route.mock]!]) {
        if ((await fetchText(`${server.url}${route.path}`)) !== bodies.get(route.path)) {
          throw new Error(`${server.url}${route.path}: the body differs from the quiet mock's.`)
        }
      }
      const runs = await measureAlternately(
        [
          ['bare', bare],
          ['mock', mocks[route.mock]!],
        ],
        route.path,
        settings,
        (name, round) => `bench: ${route.label} → ${name}, round ${round}/${settings.rounds}`,
      )
      throughput.push({
        label: route.label,
        ...(route.goal === undefined ? {} : { goal: route.goal }),
        bodyBytes: Buffer.byteLength(bodies.get(route.path) ?? ''),
        bare: poolRuns(runs.bare),
        mock: poolRuns(runs.mock),
        roundRatios: runs.mock.map((run, index) => perSecond(run) / perSecond(runs.bare[index]!)),
      })
    }
    const memory = {
      label: 'mock, 3 organizations × 50 generated users, after part 1 (--quiet)',
      goal: true,
      ...(await readMemory(mocks.quiet.pid)),
    }
    return { throughput, memory }
  } finally {
    await Promise.all([mocks.quiet?.stop(), mocks.logging?.stop(), bare?.stop()])
  }
}

/** Its stdout, where the logs go, is /dev/null: no "listening" line to read, so it is polled. */
function startLoggingMock(): Promise<ServerProcess> {
  return startOnFirst200(
    (port) => ({ ...mockLaunch(['--port', String(port)], { quiet: false }), stdout: 'discard' }),
    '/api/users/me',
    OWNER,
  )
}

function perSecond(run: LoadRun): number {
  return run.requests / run.seconds
}
