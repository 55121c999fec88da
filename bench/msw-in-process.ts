import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { PINNING } from './server-process.js'
import type { Report, Settings } from './report.js'

const LOOP = fileURLToPath(new URL('./msw-fetch-loop.mjs', import.meta.url))

/**
 * Part 8: what a frontend's unit test pays per call. `fetch` under msw/node's setupServer answered by
 * users-api-kit/msw, against a hand-written msw handler sending the very bytes the kit sent, alternated
 * in one child process (msw-fetch-loop.mjs) on the servers' core.
 */
export async function measureMswInProcess(settings: Settings): Promise<Report['mswInProcess']> {
  // Short rounds, many of them: one process's fetches drift with the machine (a round of 5 s read 0.96 and
  // the next 1.48), and the median of six alternated rounds is steadier than the mean of two.
  const rounds = Math.max(6, settings.rounds * 3)
  const [file, args] = PINNING.server(process.execPath, [
    LOOP,
    String(settings.warmupSeconds * 1000),
    String((settings.seconds * 1000) / 2),
    String(rounds),
  ])
  const { stdout } = await promisify(execFile)(file, args, { maxBuffer: 1 << 20 })
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Report['mswInProcess']
}
