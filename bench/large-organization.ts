import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { writeOneOrganizationFixture } from './large-fixture.js'
import { measureLoad, poolRuns } from './load.js'
import { OWNER, fetchText, totalOf } from './mock-http.js'
import { log } from './progress.js'
import type { Report, Settings } from './report.js'
import { ROOT, StartTimeout, mockLaunch, readMemory, startServer, type ServerProcess } from './server-process.js'

const DEFAULT_FIXTURES = join(ROOT, 'fixtures/default.json')
const LARGE_USERS = 100_000
/** Seeding 100,000 users should take seconds; past this, part 4 is reported as not measured. */
const SEEDING_LIMIT_MS = 60_000
const LARGE_QUERIES = [
  { label: '?search=ab&limit=20', path: '/api/users?search=ab&limit=20', goalP99: 20 },
  { label: '?limit=20', path: '/api/users?limit=20', goalP99: undefined },
  { label: '?search=abc&limit=20', path: '/api/users?search=abc&limit=20', goalP99: undefined },
]

/**
 * Parts 3 and 4: 100,000 generated users in the caller's organization. Not the default seed, so the
 * mock runs faker at start (nothing is cached between starts).
 */
export async function measureLargeOrganization(
  settings: Settings,
  scratch: string,
): Promise<{ figures: Report['large']; memory: Report['memory'] }> {
  const fixture = await writeOneOrganizationFixture(DEFAULT_FIXTURES, scratch)
  const users = LARGE_USERS.toLocaleString('en')
  const launch = mockLaunch(['--port', '0', '--fixtures', fixture, '--users', String(LARGE_USERS)])
  const unmeasured = LARGE_QUERIES.map(({ label, goalP99 }) => ({ label, goalP99 }))
  log(`bench: seeding ${users} users in one organization (giving up after ${SEEDING_LIMIT_MS / 1000} s)…`)
  let mock: ServerProcess
  try {
    mock = await startServer(launch, SEEDING_LIMIT_MS)
  } catch (error) {
    if (!(error instanceof StartTimeout)) throw error
    log(`bench: the mock did not listen within ${SEEDING_LIMIT_MS / 1000} s; part 4 is not measured.`)
    const memory = [
      {
        label: `mock, 1 organization × ${users} generated users, still seeding when given up on after ${error.timeoutMs / 1000} s`,
        goal: false,
        ...error.memory,
      },
      { label: `mock, 1 organization × ${users} generated users, after part 4`, goal: true },
    ]
    return { figures: { users: LARGE_USERS, gaveUpAfterMs: error.timeoutMs, queries: unmeasured }, memory }
  }
  const memory: Report['memory'] = []
  const figures: Report['large'] = { users: LARGE_USERS, seedingMs: mock.readyMs, queries: [] }
  try {
    memory.push({
      label: `mock, 1 organization × ${users} generated users, at start`,
      goal: false,
      ...(await readMemory(mock.pid)),
    })
    const firstStarted = performance.now()
    await fetchText(`${mock.url}${LARGE_QUERIES[0]!.path}`)
    figures.firstQueryMs = performance.now() - firstStarted
    figures.members = totalOf(await fetchText(`${mock.url}/api/users?limit=1`))
    for (const query of LARGE_QUERIES) {
      log(`bench: ${users} users, GET /api/users${query.label}`)
      const matches = totalOf(await fetchText(`${mock.url}${query.path}`))
      const run = await measureLoad({
        url: `${mock.url}${query.path}`,
        headers: OWNER,
        serverPid: mock.pid,
        ...settings,
      })
      figures.queries.push({ label: query.label, goalP99: query.goalP99, matches, figures: poolRuns([run]) })
    }
    memory.push({
      label: `mock, 1 organization × ${users} generated users, after part 4`,
      goal: true,
      ...(await readMemory(mock.pid)),
    })
  } finally {
    await mock.stop()
  }
  return { figures, memory }
}
