import { spawn, type ChildProcess } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { cpuPinning } from './cpu-pinning.js'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** Servers on a core of their own, away from the load generator's (cpu-pinning.ts). */
export const PINNING = cpuPinning()
export const MOCK_CLI = fileURLToPath(new URL('../dist/bin/users-api-kit.js', import.meta.url))
const BARE_SERVER = fileURLToPath(new URL('./bare-server.js', import.meta.url))
/** The mock's banner line `  API      http://127.0.0.1:PORT/api/users`; the bare server's `listening URL`. */
const READY_LINE = /(?:API\s+|listening )(http:\/\/127\.0\.0\.1:(\d+))/

export interface ServerProcess {
  child: ChildProcess
  pid: number
  /** `http://127.0.0.1:PORT`. */
  url: string
  /** Spawn → the line saying it listens, in ms. */
  readyMs: number
  stop(): Promise<void>
}

export interface Launch {
  /** Arguments after `node`. */
  args: string[]
  env?: NodeJS.ProcessEnv
  /**
   * `discard`: stdout goes to /dev/null, for a mock that logs every request: through a pipe the bench
   * would pay for reading the logs, and a full pipe would stall the mock's synchronous writes.
   */
  stdout?: 'pipe' | 'discard'
  /** The core it runs on (cpu-pinning.ts): the servers' (default), or the load generator's, for a helper of the load. */
  core?: 'server' | 'loadGenerator'
}

/**
 * `node dist/bin/users-api-kit.js mock --quiet …` (build first); `quiet: false` keeps the default request logs.
 * Nothing is cached between starts: every start is a first start.
 */
export function mockLaunch(
  flags: string[],
  { nodeFlags = [], quiet = true }: { nodeFlags?: string[]; quiet?: boolean } = {},
): Launch {
  return { args: [...nodeFlags, MOCK_CLI, 'mock', ...(quiet ? ['--quiet'] : []), ...flags] }
}

/** `node bench/bare-server.js --port N`, answering the bodies of `bodiesFile`. */
export function bareLaunch(bodiesFile: string, port = 0): Launch {
  return { args: [BARE_SERVER, '--port', String(port)], env: { BENCH_BODIES: bodiesFile } }
}

export class StartTimeout extends Error {
  constructor(
    message: string,
    readonly timeoutMs: number,
    /** The process's memory when it was given up on. */
    readonly memory: Memory | undefined,
  ) {
    super(message)
  }
}

/**
 * Spawns a server in its own process and resolves once it says it listens (on stdout: not for a
 * `discard` launch, see first-200.ts). After `timeoutMs` it reads the process's memory, kills it and
 * rejects with a StartTimeout.
 */
export function startServer(launch: Launch, timeoutMs = 60_000): Promise<ServerProcess> {
  if (launch.stdout === 'discard')
    throw new Error('startServer reads stdout: start a discard launch with startOnFirst200.')
  const started = performance.now()
  const child = spawnServer(launch)
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('exit', onExit)
      void readMemory(child.pid!).then((memory) => {
        child.kill('SIGKILL')
        reject(
          new StartTimeout(
            `${launch.args.join(' ')}: no "listening" line within ${timeoutMs} ms\n${output}`,
            timeoutMs,
            memory,
          ),
        )
      })
    }, timeoutMs)
    const fail = (error: Error): void => {
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(new Error(`${launch.args.join(' ')}: ${error.message}\n${output}`))
    }
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = READY_LINE.exec(output)
      if (!match?.[1]) return
      clearTimeout(timer)
      child.off('exit', onExit)
      child.stdout?.removeAllListeners('data')
      child.stdout?.resume()
      resolve({
        child,
        pid: child.pid!,
        url: match[1],
        readyMs: performance.now() - started,
        stop: () => stopProcess(child),
      })
    })
    const onExit = (code: number | null, signal: string | null): void =>
      fail(new Error(`exited (${code ?? signal}) before listening`))
    child.once('exit', onExit)
  })
}

export function spawnServer({ args, env, stdout = 'pipe', core = 'server' }: Launch): ChildProcess {
  const [file, pinnedArgs] = PINNING[core](process.execPath, args)
  return spawn(file, pinnedArgs, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', stdout === 'discard' ? 'ignore' : 'pipe', 'pipe'],
  })
}

/** SIGTERM (both servers close and exit 0, which also writes a --cpu-prof profile), SIGKILL after 10 s. */
export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill('SIGTERM')
  })
}

export interface Memory {
  rssMiB: number
  peakMiB: number
}

/** Resident and peak resident memory of a process, in MiB, from /proc (Linux). */
export async function readMemory(pid: number): Promise<Memory | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8')
    const kib = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN)
    return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 }
  } catch {
    return undefined
  }
}
