/**
 * Where the mock spends its time: runs it under `node --cpu-prof`, optionally loads one request, stops
 * it, and prints the profile's top frames by self time and the share of each package. Build first.
 *
 * Run: npx tsx bench/profile-mock.ts --path '/api/users/me' [--seconds 10] [-- mock flags…]
 *      npx tsx bench/profile-mock.ts --path '/api/users/me' --bare   (the bare server, same bytes)
 *      npx tsx bench/profile-mock.ts --startup --inclusive createUsersApiMock,buildApp
 *        (start-up only; --inclusive: time in these functions, callees included)
 *      Mock flags go after `--`, e.g. `-- --users 100000 --fixtures FILE`.
 * Self times are also given per request, the figure to compare between the mock and --bare.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { measureLoad, poolRuns } from './load.js'
import { markdownTable } from './markdown-table.js'
import { ROOT, bareLaunch, mockLaunch, startServer, type Launch } from './server-process.js'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  hitCount?: number
  children?: number[]
}
interface CpuProfile {
  nodes: ProfileNode[]
  startTime: number
  endTime: number
  samples: number[]
  timeDeltas: number[]
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    path: { type: 'string' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    startup: { type: 'boolean', default: false },
    bare: { type: 'boolean', default: false },
    top: { type: 'string', default: '25' },
    /** Comma-separated function names: the time spent in each, callees included. */
    inclusive: { type: 'string', default: '' },
  },
})
if (!values.startup && values.path === undefined) throw new Error('Give --path /api/… to load, or --startup.')

const OWNER = { authorization: 'Bearer owner-token' }
const directory = await mkdtemp(join(tmpdir(), 'users-api-kit-profile-'))
try {
  const profiling = ['--cpu-prof', '--cpu-prof-dir', directory]
  const launch = values.bare
    ? await bareProfiledLaunch(values.path, profiling)
    : mockLaunch(['--port', '0', ...positionals], { nodeFlags: profiling })
  const spawnedAt = performance.now()
  const server = await startServer(launch)
  console.log(`${values.bare ? 'bare server' : 'mock'} listening after ${server.readyMs.toFixed(0)} ms`)
  let requests = 0
  /** The load's time window, in ms since the spawn: only its samples count when there is a load. */
  let window: { from: number; to: number } | undefined
  if (values.path !== undefined) {
    const from = performance.now() - spawnedAt
    const run = await measureLoad({
      url: `${server.url}${values.path}`,
      headers: OWNER,
      connections: Number(values.connections),
      warmupSeconds: 0,
      seconds: Number(values.seconds),
    })
    window = { from, to: performance.now() - spawnedAt }
    const figures = poolRuns([run])
    requests = run.requests
    console.log(
      `${values.path}: ${requests} requests, ${figures.requestsPerSecond.toFixed(0)}/s, p50 ${figures.p50.toFixed(2)} ms, p99 ${figures.p99.toFixed(2)} ms${figures.failures ? ` (${figures.failures})` : ''}`,
    )
  }
  await server.stop()
  const file = (await readdir(directory)).find((name) => name.endsWith('.cpuprofile'))
  if (!file) throw new Error('No .cpuprofile written (did the server exit cleanly?).')
  summarize(
    JSON.parse(await readFile(join(directory, file), 'utf8')) as CpuProfile,
    Number(values.top),
    requests,
    window,
  )
} finally {
  await rm(directory, { recursive: true, force: true })
}

/** The bare server answering what an unprofiled mock answers to `path`. */
async function bareProfiledLaunch(path: string | undefined, nodeFlags: string[]): Promise<Launch> {
  if (path === undefined) throw new Error('--bare needs --path.')
  const mock = await startServer(mockLaunch(['--port', '0', ...positionals]))
  try {
    const body = await (await fetch(`${mock.url}${path}`, { headers: OWNER })).text()
    const bodiesFile = join(directory, 'bodies.json')
    await writeFile(bodiesFile, JSON.stringify({ [path]: body }))
    const launch = bareLaunch(bodiesFile)
    return { ...launch, args: [...nodeFlags, ...launch.args] }
  } finally {
    await mock.stop()
  }
}

/**
 * Self time per function and per package, from the samples and their time deltas; with a window,
 * only the samples in it (the profile starts with the process: start-up is not the load's cost).
 * The profile's clock starts a little after the spawn, so the window errs on the side of the load.
 */
function summarize(
  profile: CpuProfile,
  top: number,
  requests: number,
  window: { from: number; to: number } | undefined,
): void {
  const selfMicros = new Map<number, number>()
  const inWindow: boolean[] = []
  let at = profile.startTime
  let total = 0
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0
    at += delta
    const sinceStart = (at - profile.startTime) / 1000
    inWindow[index] = window === undefined || (sinceStart >= window.from && sinceStart <= window.to)
    if (!inWindow[index]) return
    total += delta
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + delta)
  })
  const byFrame = new Map<string, number>()
  const byPackage = new Map<string, number>()
  for (const node of profile.nodes) {
    const micros = selfMicros.get(node.id) ?? 0
    if (micros === 0) continue
    const { functionName, url, lineNumber } = node.callFrame
    const where = url === '' ? '' : ` ${shorten(url)}:${lineNumber + 1}`
    const frame = `${functionName || '(anonymous)'}${where}`
    byFrame.set(frame, (byFrame.get(frame) ?? 0) + micros)
    byPackage.set(packageOf(url, functionName), (byPackage.get(packageOf(url, functionName)) ?? 0) + micros)
  }
  const rows = (map: Map<string, number>, count: number): string[][] =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, micros]) => [
        name,
        (micros / 1000).toFixed(0),
        ((100 * micros) / total).toFixed(1),
        requests > 0 ? (micros / requests).toFixed(2) : '—',
      ])
  const busy = total - (byPackage.get('(idle)') ?? 0)
  console.log(
    `\nProfile${window ? ' during the load' : ''}: ${(total / 1000).toFixed(0)} ms, of which ${(busy / 1000).toFixed(0)} ms not idle${requests > 0 ? `: ${(busy / requests).toFixed(1)} µs per request` : ''}\n`,
  )
  console.log(markdownTable(['Package', 'self ms', '%', 'µs/request'], rows(byPackage, 15)))
  console.log()
  console.log(markdownTable(['Function', 'self ms', '%', 'µs/request'], rows(byFrame, top)))
  const names = values.inclusive.split(',').filter(Boolean)
  if (names.length === 0) return
  const parents = new Map<number, ProfileNode>()
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node)
  const inclusive = new Map<string, number>(names.map((name) => [name, 0]))
  profile.samples.forEach((id, index) => {
    if (!inWindow[index]) return
    const seen = new Set<string>()
    for (let node = nodes.get(id); node; node = parents.get(node.id)) seen.add(node.callFrame.functionName)
    for (const name of names)
      if (seen.has(name)) inclusive.set(name, inclusive.get(name)! + (profile.timeDeltas[index] ?? 0))
  })
  console.log()
  console.log(
    markdownTable(
      ['Function (callees included)', 'ms', '%'],
      [...inclusive].map(([name, micros]) => [name, (micros / 1000).toFixed(0), ((100 * micros) / total).toFixed(1)]),
    ),
  )
}

function shorten(url: string): string {
  return url.replace(`file://${ROOT}`, '').replace(/^.*\/node_modules\//, '~/')
}

/** `fastify`, `@fastify/cors`, `src` (the mock's dist/), `node:…`, or the V8 pseudo-frames. */
function packageOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)'
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (match?.[1]) return match[1]
  if (url.startsWith('node:')) return 'node internals'
  if (url.includes(`${ROOT}/dist/`)) return `dist/${url.split(`${ROOT}/dist/`)[1]?.split('/')[0]}`
  return url
}
