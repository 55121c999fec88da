import { spawn } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { log } from './progress.js'
import { MOCK_CLI, mockLaunch, startServer } from './server-process.js'

/** One run of verify: spawn → its first line of output, spawn → exit, and what its summary said. */
interface VerifyRun {
  firstLineMs: number
  wallMs: number
  checks: string
}

/**
 * Part 5: `users-api-kit verify --base-url` against a mock already running (started before the clock,
 * fresh each run), the whole suite and `--only core`, each `runs` times, alternated: spawn → first line
 * and spawn → exit, in ms.
 */
export async function measureContractSuite(runs: number): Promise<{
  wallMs: number[]
  coreWallMs: number[]
  firstLineMs: number[]
  checks: string
  coreChecks: string
}> {
  const figures = { wallMs: [] as number[], coreWallMs: [] as number[], firstLineMs: [] as number[] }
  let checks = ''
  let coreChecks = ''
  for (let index = 0; index < runs; index++) {
    for (const core of [false, true]) {
      const mock = await startServer(mockLaunch(['--port', '0']))
      try {
        const run = await runVerify(mock.url, core ? ['--only', 'core'] : [])
        if (core) {
          figures.coreWallMs.push(run.wallMs)
          coreChecks = run.checks
        } else {
          figures.wallMs.push(run.wallMs)
          figures.firstLineMs.push(run.firstLineMs)
          checks = run.checks
        }
        log(
          `bench: contract suite${core ? ' --only core' : ''} ${index + 1}/${runs}: ${run.wallMs.toFixed(0)} ms, first line after ${run.firstLineMs.toFixed(0)} ms (${run.checks})`,
        )
      } finally {
        await mock.stop()
      }
    }
  }
  return { ...figures, checks, coreChecks }
}

function runVerify(url: string, args: string[]): Promise<VerifyRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    let firstLineMs: number | undefined
    let stdout = ''
    const child = spawn('node', [MOCK_CLI, 'verify', '--base-url', url, ...args], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    child.stdout.on('data', (chunk: Buffer) => {
      firstLineMs ??= performance.now() - started
      stdout += chunk.toString()
    })
    child.on('error', reject)
    child.on('close', (code) => {
      const wallMs = performance.now() - started
      if (code !== 0) return reject(new Error(`verify exited ${code}:\n${stdout.slice(-2000)}`))
      const checks = /(\d+ checks? passed, \d+ failed, \d+ skipped)/.exec(stdout)?.[1] ?? 'unknown'
      resolve({ firstLineMs: firstLineMs ?? wallMs, wallMs, checks })
    })
  })
}
