import { writeFile } from 'node:fs/promises'
import { measureLoad, poolRuns, type LoadRun } from './load.js'
import { OWNER, fetchText } from './mock-http.js'
import { log } from './progress.js'
import type { Report, Settings } from './report.js'
import { bareLaunch, mockLaunch, readMemory, startServer, type ServerProcess } from './server-process.js'

/** `an` matches 10 of the 58 members of the first organization with the default seed. */
const ROUTES = [
  { label: 'GET /api/users/me', path: '/api/users/me', goal: 0.9 },
  { label: 'GET /api/users?limit=20&search=an', path: '/api/users?limit=20&search=an', goal: 0.7 },
]

/** Part 1, and the RSS with 50 users: the mock and a bare server answering the same bytes, alternated. */
export async function compareThroughput(
  settings: Settings,
  bodiesFile: string,
  startCache: string,
): Promise<Pick<Report, 'throughput'> & { memory: Report['memory'][number] }> {
  const mock = await startServer(mockLaunch(['--port', '0'], { startCache }))
  let bare: ServerProcess | undefined
  try {
    const bodies = new Map<string, string>()
    for (const route of ROUTES) bodies.set(pathOnly(route.path), await fetchText(`${mock.url}${route.path}`))
    await writeFile(bodiesFile, JSON.stringify(Object.fromEntries(bodies)))
    bare = await startServer(bareLaunch(bodiesFile))
    for (const route of ROUTES) {
      if ((await fetchText(`${bare.url}${route.path}`)) !== bodies.get(pathOnly(route.path))) {
        throw new Error(`The bare server's body for ${route.path} differs from the mock's.`)
      }
    }
    const throughput: Report['throughput'] = []
    for (const route of ROUTES) {
      const runs = { bare: [] as LoadRun[], mock: [] as LoadRun[] }
      for (let round = 1; round <= settings.rounds; round++) {
        for (const [name, server] of [
          ['bare', bare],
          ['mock', mock],
        ] as const) {
          log(`bench: ${route.label} → ${name}, round ${round}/${settings.rounds}`)
          runs[name].push(
            await measureLoad({
              url: `${server.url}${route.path}`,
              headers: OWNER,
              serverPid: server.pid,
              ...settings,
            }),
          )
        }
      }
      throughput.push({
        label: route.label,
        goal: route.goal,
        bodyBytes: Buffer.byteLength(bodies.get(pathOnly(route.path)) ?? ''),
        bare: poolRuns(runs.bare),
        mock: poolRuns(runs.mock),
        roundRatios: runs.mock.map((run, index) => perSecond(run) / perSecond(runs.bare[index]!)),
      })
    }
    const memory = {
      label: 'mock, 3 organizations × 50 generated users, after part 1',
      goal: true,
      ...(await readMemory(mock.pid)),
    }
    return { throughput, memory }
  } finally {
    await Promise.all([mock.stop(), bare?.stop()])
  }
}

function pathOnly(path: string): string {
  return path.split('?')[0] ?? path
}

function perSecond(run: LoadRun): number {
  return run.requests / run.seconds
}
