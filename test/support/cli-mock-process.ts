import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { execa, type Options, type ResultPromise } from 'execa'

// `users-api-kit mock` as a developer runs it: the built CLI in its own process.

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
export const MAIN = fileURLToPath(new URL('../../dist/bin/users-api-kit.js', import.meta.url))
/** How long a start, or a stop after a signal, may take. */
export const WITHIN_MS = 10_000

export type Cli = ResultPromise<{ reject: false; cwd: string }>

const running: Cli[] = []

/** `npm test` builds first; a bare `vitest run` on a fresh checkout builds here (call it in beforeAll). */
export async function buildCliOnce(): Promise<void> {
  if (!existsSync(MAIN)) await execa('npm', ['run', 'build'], { cwd: ROOT })
}

/** Kills what the test left running (call it in afterEach). */
export function killRunningClis(): void {
  for (const cli of running.splice(0)) if (cli.exitCode === null) cli.kill('SIGKILL')
}

export function runCli(args: string[], options: Pick<Options, 'env'> = {}): Cli {
  const cli = execa('node', [MAIN, ...args], { reject: false, cwd: ROOT, ...options }) as Cli
  running.push(cli)
  return cli
}

export interface StartedCli {
  cli: Cli
  banner: string
  /** The URL the banner names, with a wildcard host replaced by 127.0.0.1 (what a client dials). */
  url: string
  /** Everything printed so far on stdout and stderr (request logs included), growing as it runs. */
  output: () => string
}

/** Starts the mock and waits for the end of its banner. */
export async function startCli(args: string[] = [], options: Pick<Options, 'env'> = {}): Promise<StartedCli> {
  const cli = runCli(['mock', '--port', '0', ...args], options)
  let output = ''
  let banner = ''
  cli.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`No banner within ${WITHIN_MS} ms. Output so far:\n${output}`)),
      WITHIN_MS,
    )
    cli.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (banner === '' && output.includes('Ctrl-C stops it.')) {
        // The banner ends there; a log line that came in the same chunk is not part of it.
        banner = output.slice(0, output.indexOf('Ctrl-C stops it.') + 'Ctrl-C stops it.'.length)
        clearTimeout(timer)
        resolve()
      }
    })
    cli.then(
      (result) => reject(new Error(`The mock exited (${result.exitCode}) before its banner:\n${result.stderr}`)),
      reject,
    )
  })
  const match = /API\s+http:\/\/([^\s/]+):(\d+)\/api\/users/.exec(banner)
  if (!match) throw new Error(`The banner names no URL:\n${banner}`)
  const host = match[1] === '0.0.0.0' || match[1] === '[::]' ? '127.0.0.1' : match[1]
  return { cli, banner, url: `http://${host}:${match[2]}`, output: () => output }
}
