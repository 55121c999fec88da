import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { mkdtemp, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { OWNER } from './mock-http.js'
import { log } from './progress.js'
import type { Report } from './report.js'
import {
  bareLaunch,
  freePort,
  mockLaunch,
  spawnServer,
  startServer,
  stopProcess,
  type Launch,
} from './server-process.js'

const POLL_EVERY_MS = 2
const GIVE_UP_MS = 60_000

/**
 * Spawn → the first 200 of `GET path`, in ms: the poller knows the port before the spawn and fetches
 * every few ms (a refused connection fails at once), as a test runner waiting for its mock would.
 */
export async function measureColdStart(
  launchOn: (port: number) => Launch,
  path: string,
  headers: Record<string, string>,
): Promise<number> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}${path}`
  const started = performance.now()
  const child = spawnServer(launchOn(port))
  child.stdout?.resume()
  child.stderr?.resume()
  try {
    while (performance.now() - started < GIVE_UP_MS) {
      if (child.exitCode !== null) throw new Error(`${url}: the server exited (${child.exitCode}) before answering`)
      if (await answers200(url, headers)) return performance.now() - started
      await sleep(POLL_EVERY_MS)
    }
    throw new Error(`${url}: no 200 within ${GIVE_UP_MS} ms`)
  } finally {
    await stopProcess(child)
  }
}

async function answers200(url: string, headers: Record<string, string>): Promise<boolean> {
  try {
    const response = await fetch(url, { headers })
    await response.arrayBuffer()
    return response.status === 200
  } catch {
    return false
  }
}

/**
 * Part 2: spawn → first 200 of /api/users/me, rotating which server starts first. The mock three
 * times: a first start after a fresh install (an empty start-cache folder each time; the build's
 * dist/start-cache still serves the default document and seed), a start whose cache an earlier start
 * filled, and a start with the cache off (every step computed).
 */
export async function compareColdStarts(
  bodiesFile: string,
  count: number,
  scratch: string,
): Promise<Report['coldStart']> {
  const warmCache = join(scratch, 'cache-warm')
  const filling = await startServer(mockLaunch(['--port', '0'], { startCache: warmCache }))
  await filling.stop()
  const cacheWritten = (await readdir(warmCache).catch(() => [])).length > 0
  const runs = {
    bare: [] as number[],
    mockFirst: [] as number[],
    mockCached: [] as number[],
    mockUncached: [] as number[],
  }
  const measure = {
    bare: () => measureColdStart((port) => bareLaunch(bodiesFile, port), '/api/users/me', OWNER),
    mockFirst: async () => {
      const startCache = await mkdtemp(join(scratch, 'cache-empty-'))
      return measureColdStart((port) => mockLaunch(['--port', String(port)], { startCache }), '/api/users/me', OWNER)
    },
    mockUncached: () =>
      measureColdStart((port) => mockLaunch(['--port', String(port)], { startCache: 'off' }), '/api/users/me', OWNER),
    mockCached: () =>
      measureColdStart(
        (port) => mockLaunch(['--port', String(port)], { startCache: warmCache }),
        '/api/users/me',
        OWNER,
      ),
  }
  const names = ['bare', 'mockFirst', 'mockCached', 'mockUncached'] as const
  for (let index = 0; index < count; index++) {
    for (let offset = 0; offset < names.length; offset++) {
      const name = names[(index + offset) % names.length]!
      runs[name].push(await measure[name]())
    }
    log(
      `bench: cold start ${index + 1}/${count}: bare ${ms(runs.bare)}, mock first start ${ms(runs.mockFirst)}, mock with its start cache ${ms(runs.mockCached)}, mock with no cache ${ms(runs.mockUncached)}`,
    )
  }
  return { ...runs, cacheWritten }
}

function ms(runs: number[]): string {
  return `${runs.at(-1)!.toFixed(0)} ms`
}
