import { execFile } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { promisify } from 'node:util'
import { log } from './progress.js'
import { MOCK_CLI, mockLaunch, startServer } from './server-process.js'

const run = promisify(execFile)

/** Part 5: `users-api-kit verify --base-url` against a fresh mock, spawn of verify → its exit, in ms. */
export async function measureContractSuite(runs: number): Promise<{ wallMs: number[]; checks: string }> {
  const wallMs: number[] = []
  let checks = ''
  for (let index = 0; index < runs; index++) {
    const mock = await startServer(mockLaunch(['--port', '0']))
    try {
      const started = performance.now()
      const { stdout } = await run('node', [MOCK_CLI, 'verify', '--base-url', mock.url], {
        env: { ...process.env, NO_COLOR: '1' },
        maxBuffer: 64 * 1024 * 1024,
      })
      wallMs.push(performance.now() - started)
      checks = /(\d+ checks passed, \d+ failed, \d+ skipped)/.exec(stdout)?.[1] ?? 'unknown'
      log(`bench: contract suite ${index + 1}/${runs}: ${wallMs.at(-1)!.toFixed(0)} ms (${checks})`)
    } finally {
      await mock.stop()
    }
  }
  return { wallMs, checks }
}
