import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildCliOnce, killRunningClis, startCli, type StartedCli } from './cli-mock-process.js'

// How long a server's own work keeps its event loop from turning, counted in the CPU time of its main
// thread, not in wall time: on a busy 2-core machine a process waits for a core too, and a wall-clock stall
// measures the machine. Loaded into the server's process (NODE_OPTIONS=--import), it notes the main thread's
// CPU time at every turn of a 5 ms timer; the longest stretch between two turns is what one piece of work
// held the loop for (a synchronous parse, a GC pause on that thread), whatever the machine's load.

const MEASURE = `data:text/javascript,${encodeURIComponent(
  [
    "import { writeFileSync } from 'node:fs'",
    'let last = process.threadCpuUsage()',
    'let longest = 0',
    'const turn = () => { const now = process.threadCpuUsage(); longest = Math.max(longest, (now.user - last.user + now.system - last.system) / 1000); last = now }',
    'setInterval(turn, 5).unref()',
    "process.on('SIGUSR2', () => { turn(); writeFileSync(process.env.LOOP_STALL_FILE, String(longest)); longest = 0 })",
  ].join('; '),
)}`

export interface LoopStalls {
  /** The environment to start the server with. */
  env: Record<string, string>
  /** The longest stall (ms of main-thread CPU between two turns) since the last call; infinite if the process is gone. */
  longestMs(pid: number): Promise<number>
}

/** A measure of a server's stalls, written through a file in `directory`. */
export function measureLoopStalls(directory: string): LoopStalls {
  const file = join(directory, 'loop-stall')
  return {
    env: { NODE_OPTIONS: `--import ${MEASURE}`, LOOP_STALL_FILE: file },
    async longestMs(pid) {
      await rm(file, { force: true })
      process.kill(pid, 'SIGUSR2')
      for (let waited = 0; waited < 10_000; waited += 10) {
        const text = await readFile(file, 'utf8').catch(() => '')
        if (text !== '') return Number(text)
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      return Number.POSITIVE_INFINITY
    },
  }
}

/** A mock started by its CLI (`--quiet`) with its stalls measured (see above), and what to stop it with. */
export interface MeasuredMock {
  mock: StartedCli
  /** The longest its own work held its event loop since the last call, in ms of its main thread's CPU. */
  longestStallMs(): Promise<number>
  close(): Promise<void>
}

export async function startMeasuredMock(): Promise<MeasuredMock> {
  await buildCliOnce()
  const directory = await mkdtemp(join(tmpdir(), 'measured-mock-'))
  const stalls = measureLoopStalls(directory)
  const mock = await startCli(['--quiet'], { env: stalls.env })
  return {
    mock,
    longestStallMs: () => stalls.longestMs(mock.cli.pid as number),
    async close() {
      killRunningClis()
      await rm(directory, { recursive: true, force: true })
    },
  }
}
