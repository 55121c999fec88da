import { startOnFirst200 } from './first-200.js'
import { OWNER } from './mock-http.js'
import { log } from './progress.js'
import type { Report } from './report.js'
import { bareLaunch, mockLaunch } from './server-process.js'

/**
 * Part 2: spawn → first 200 of /api/users/me, alternating which server starts first. The mock caches
 * nothing between starts (what it needs at start, `npm run build` generated into dist/), so every
 * start is the first start after a fresh install.
 */
export async function compareColdStarts(bodiesFile: string, count: number): Promise<Report['coldStart']> {
  const runs = { bare: [] as number[], mock: [] as number[] }
  const launches = {
    bare: (port: number) => bareLaunch(bodiesFile, port),
    mock: (port: number) => mockLaunch(['--port', String(port)]),
  }
  const names = ['bare', 'mock'] as const
  for (let index = 0; index < count; index++) {
    for (let offset = 0; offset < names.length; offset++) {
      const name = names[(index + offset) % names.length]!
      const server = await startOnFirst200(launches[name], '/api/users/me', OWNER)
      await server.stop()
      runs[name].push(server.readyMs)
    }
    log(`bench: cold start ${index + 1}/${count}: bare ${ms(runs.bare)}, mock ${ms(runs.mock)}`)
  }
  return runs
}

function ms(runs: number[]): string {
  return `${runs.at(-1)!.toFixed(0)} ms`
}
