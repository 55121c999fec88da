import { cp, mkdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { execa } from 'execa'
import { MAIN, ROOT } from './cli-mock-process.js'
import { freePort } from './free-port.js'
import { startGroup, stopGroup, type GroupLeader } from './process-groups.js'

// examples/users-service as its team has it: a checkout of its tracked files (never the clone's own
// folder, whose node_modules a developer may have), installed with `npm ci`, started with `npm start`.

export const SERVICE_DIR = join(ROOT, 'examples/users-service')

/** The example's tracked files, copied into `destination` (a fresh checkout of the service's repository). */
export async function checkOutService(destination: string): Promise<void> {
  const files = (await execa('git', ['ls-files', '--', '.'], { cwd: SERVICE_DIR })).stdout.split('\n').filter(Boolean)
  for (const file of files) {
    await mkdir(dirname(join(destination, file)), { recursive: true })
    await cp(join(SERVICE_DIR, file), join(destination, file))
  }
}

/** A shell command's run in `cwd`: its exit code and its output, stdout and stderr interleaved. */
export async function runIn(
  cwd: string,
  file: string,
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ exitCode: number; output: string }> {
  const result = await execa(file, args, { cwd, env, reject: false, all: true, extendEnv: false })
  return { exitCode: result.exitCode ?? -1, output: result.all ?? '' }
}

export interface RunningService {
  group: GroupLeader
  url: string
}

/** `npm start` in the checkout on a free port, once it says it listens. */
export async function startService(checkout: string, env: Record<string, string | undefined>): Promise<RunningService> {
  const port = await freePort()
  const group = startGroup('npm', ['start'], { cwd: checkout, env: { ...env, PORT: String(port) } })
  for (const deadline = Date.now() + 120_000; !group.output().includes('users-service: listening on');) {
    if (Date.now() > deadline || group.process.exitCode !== null)
      throw new Error(`The service did not start:\n${group.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return { group, url: `http://127.0.0.1:${port}` }
}

/** What the proxy's JSON report counts (src/proxy/finding-log.ts). */
export interface ProxyCounts {
  exchanges: number
  judged: number
  violations: number
  client: number
  unchecked: number
}

/**
 * The kit's proxy in front of `upstream` with --fail-on-violation, `run` pointed at it, then the proxy
 * stopped as CI stops it (SIGINT): its exit code, what it printed and its report's counts.
 */
export async function throughProxy(
  upstream: string,
  reportDir: string,
  run: (proxyUrl: string) => Promise<void>,
): Promise<{ exitCode: number | undefined; output: string; counts: ProxyCounts }> {
  const proxy = startGroup(
    'node',
    [MAIN, 'proxy', '--upstream', upstream, '--port', '0', '--report', reportDir, '--fail-on-violation'],
    { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } },
  )
  try {
    let banner: RegExpExecArray | null = null
    for (const deadline = Date.now() + 30_000; !(banner = /Point your app at\s+(http:\/\/\S+)/.exec(proxy.output()));) {
      if (Date.now() > deadline || proxy.process.exitCode !== null)
        throw new Error(`The proxy did not start:\n${proxy.output()}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    await run(banner[1] ?? '')
  } finally {
    process.kill(proxy.pid, 'SIGINT')
  }
  const result = await proxy.process
  await stopGroup(proxy.pid)
  const report = JSON.parse(await readFile(join(reportDir, 'users-api-kit-proxy.json'), 'utf8')) as {
    counts: ProxyCounts
  }
  return { exitCode: result.exitCode, output: proxy.output(), counts: report.counts }
}
