/**
 * Where the mock's cold start goes, phase by phase, next to the bare Fastify server's: each run is a
 * fresh `node` that times (from its own process start) the imports, the build, the listen and the
 * first request. The mock caches nothing between starts, so every run is a first start. Build first.
 *
 * Run: npx tsx bench/startup-phases.ts [--runs 5]
 */
import { execFile } from 'node:child_process'
import { pathToFileURL } from 'node:url'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { parseArgs } from 'node:util'
import { median } from './load.js'
import { markdownTable } from './markdown-table.js'
import { ROOT } from './server-process.js'

const run = promisify(execFile)
const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } })
const RUNS = Number(values.runs)
const START_MOCK = pathToFileURL(join(ROOT, 'dist/server/start-mock.js')).href

/** node:http (Fastify loads it anyway), not fetch: undici's first load would be counted as the server's. */
const GET = `
  const get = (port, headers) => new Promise((resolve, reject) => {
    import('node:http').then(({ get }) => get({ host: '127.0.0.1', port, path: '/api/users/me', headers }, (response) => {
      if (response.statusCode !== 200) reject(new Error('status ' + response.statusCode))
      response.resume().on('end', resolve)
    }).on('error', reject))
  })`

/** Prints one JSON object of cumulative ms since the process started, one key per phase. */
const SCRIPTS = {
  bare: `${GET}
    const marks = { 'node started': performance.now() }
    const { default: Fastify } = await import('fastify')
    marks['fastify imported'] = performance.now()
    const app = Fastify({ logger: false })
    app.get('/api/users/me', (request, reply) => { reply.header('content-type', 'application/json; charset=utf-8').send('{"data":{}}') })
    await app.ready()
    marks['app built'] = performance.now()
    await app.listen({ port: 0, host: '127.0.0.1' })
    marks['listening'] = performance.now()
    await get(app.server.address().port, {})
    marks['first 200 answered'] = performance.now()
    console.log(JSON.stringify(marks)); await app.close()`,
  mock: `${GET}
    const marks = { 'node started': performance.now() }
    await import('fastify')
    marks['fastify imported'] = performance.now()
    const { createMockApp } = await import(${JSON.stringify(START_MOCK)})
    marks['the rest of the mock imported'] = performance.now()
    const { app } = await createMockApp({ logger: { level: 'warn' } })
    await app.ready()
    marks['app built (engine, seed state, routes)'] = performance.now()
    await app.listen({ port: 0, host: '127.0.0.1' })
    marks['listening'] = performance.now()
    await get(app.server.address().port, { authorization: 'Bearer owner-token' })
    marks['first 200 answered'] = performance.now()
    console.log(JSON.stringify(marks)); await app.close(); process.exit(0)`,
}

type Marks = Record<string, number>
const SERIES = {
  bare: { title: 'Bare Fastify', script: SCRIPTS.bare },
  mock: { title: 'Mock (nothing cached)', script: SCRIPTS.mock },
} as const
const results: Record<keyof typeof SERIES, Marks[]> = { bare: [], mock: [] }
for (let index = 0; index < RUNS; index++) {
  for (const name of Object.keys(SERIES) as Array<keyof typeof SERIES>) {
    results[name].push(await runScript(SERIES[name].script))
  }
}
for (const name of Object.keys(SERIES) as Array<keyof typeof SERIES>) {
  const phases = Object.keys(results[name][0]!)
  const at = (phase: string): number => median(results[name].map((marks) => marks[phase]!))
  const rows = phases.map((phase, index) => [
    phase,
    at(phase).toFixed(0),
    (at(phase) - (index === 0 ? 0 : at(phases[index - 1]!))).toFixed(0),
  ])
  console.log(`\n${SERIES[name].title}: median of ${RUNS} runs\n`)
  console.log(markdownTable(['Phase', 'ms since process start', 'difference of medians, ms'], rows))
}

async function runScript(script: string): Promise<Marks> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT })
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Marks
}
