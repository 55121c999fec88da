import { existsSync, readFileSync } from 'node:fs'
import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { readJunitTotals } from '../../src/contract/report/merge-junit-reports.js'
import { buildCliOnce, MAIN, ROOT } from '../support/cli-mock-process.js'
import { freePort } from '../support/free-port.js'
import { envFor, findNodeBin, makeScratch } from '../support/kit-install.js'
import { stopEveryGroup } from '../support/process-groups.js'
import { checkOutService, runIn, startService, throughProxy, type RunningService } from '../support/users-service.js'

// examples/users-service as its README runs it, on PGlite (the PostgreSQL in WebAssembly it embeds when
// DATABASE_URL is unset): npm ci, npm start, its seed script; then the kit's gate against it (verify,
// strict, webhooks on, and Schemathesis), its own end-to-end client and verify's run through the kit's proxy. The
// service runs on Node 22 when .tools/ has it: test/install/users-service-ci-workflow.test.ts runs it on Node 24,
// on a PostgreSQL server.

const nodeBin = findNodeBin(22) ?? join(process.execPath, '..')
const ADMIN_TOKEN = 'test-admin-token'
let scratch: string
let checkout: string
let env: Record<string, string | undefined>
let service: RunningService
let install: { exitCode: number; output: string }

beforeAll(async () => {
  await buildCliOnce()
  scratch = await makeScratch('users-service-pglite-')
  checkout = join(scratch, 'users-service')
  await checkOutService(checkout)
  env = { ...envFor(nodeBin), ADMIN_TOKEN }
  install = await runIn(checkout, 'npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], env)
  if (install.exitCode !== 0) throw new Error(`npm ci failed:\n${install.output}`)
  service = await startService(checkout, env)
}, 300_000)

afterAll(async () => {
  await stopEveryGroup()
  if (scratch) await rm(scratch, { recursive: true, force: true })
})

/** seed:contract against the running service: the target file's path. */
async function seed(name: string): Promise<string> {
  const target = join(scratch, `${name}.target.json`)
  const webhooks = `127.0.0.1:${await freePort()}`
  const args = [
    'run',
    'seed:contract',
    '--',
    '--base-url',
    service.url,
    '--target',
    target,
    '--webhook-listen',
    webhooks,
  ]
  const seeded = await runIn(checkout, 'npm', args, env)
  expect(seeded.exitCode, seeded.output).toBe(0)
  return target
}

test(
  'npm ci installs it with PGlite whole (its WebAssembly is in the npm package), and its TypeScript type-checks',
  { timeout: 120_000 },
  async () => {
    for (const file of ['pglite.wasm', 'pglite.data', 'initdb.wasm']) {
      expect(existsSync(join(checkout, 'node_modules/@electric-sql/pglite/dist', file)), file).toBe(true)
    }
    const typecheck = await runIn(checkout, 'npm', ['run', 'typecheck'], env)
    expect(typecheck.exitCode, typecheck.output).toBe(0)
    expect(service.group.output()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ \(PGlite/)
  },
)

test(
  'the gate passes it: every check of verify, none skipped, webhooks included, and Schemathesis finds nothing',
  { timeout: 300_000 },
  async () => {
    const target = await seed('gate')
    const junit = join(scratch, 'gate', 'users-api-kit-gate.xml')
    const args = [MAIN, 'gate', '--target', target, '--junit', junit, '--max-examples', '5', '--seed', '1']
    const gate = await runIn(ROOT, 'node', args, { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' })

    expect(gate.exitCode, gate.output.slice(-4000)).toBe(0)
    expect(gate.output).toMatch(/verify {2}✓ \d+ checks? passed, 0 failed, 0 skipped/)
    expect(gate.output).toMatch(/fuzz {4}✓ no findings/)
    const report = readFileSync(junit, 'utf8')
    expect(readJunitTotals(report)).toMatchObject({ failures: 0, errors: 0, skipped: 0 })
    const webhooks = /<testsuite name="users-api-kit verify: webhooks\.contract\.test\.ts"[^>]*>/.exec(report)?.[0]
    expect(webhooks).toMatch(/ tests="[1-9]\d*" failures="0" errors="0" skipped="0"/)
  },
)

test(
  'its end-to-end client passes through the proxy, which finds no violation in any exchange',
  { timeout: 120_000 },
  async () => {
    const target = await seed('e2e')
    let e2e = { exitCode: -1, output: '' }
    const proxy = await throughProxy(service.url, join(scratch, 'proxy'), async (url) => {
      e2e = await runIn(checkout, 'npm', ['run', 'e2e', '--', '--base-url', url, '--target', target], env)
    })

    expect(e2e.exitCode, e2e.output).toBe(0)
    expect(e2e.output).toContain('e2e: passed')
    expect(proxy.exitCode, proxy.output).toBe(0)
    expect(proxy.counts).toMatchObject({ violations: 0, client: 0, unchecked: 0 })
    expect(proxy.counts.judged).toBeGreaterThan(30)
  },
)

test(
  "verify's whole run through the proxy: verify passes, strict, and the proxy finds no violation in its traffic",
  { timeout: 300_000 },
  async () => {
    const target = JSON.parse(readFileSync(await seed('verify-through-proxy'), 'utf8')) as { baseUrl: string }
    let run = { exitCode: -1, output: '' }
    const proxy = await throughProxy(service.url, join(scratch, 'proxy-verify'), async (url) => {
      const throughIt = join(scratch, 'through-proxy.target.json')
      await writeFile(throughIt, JSON.stringify({ ...target, baseUrl: url }))
      const args = [MAIN, 'verify', '--target', throughIt, '--strict']
      run = await runIn(ROOT, 'node', args, { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' })
    })

    expect(run.exitCode, run.output.slice(-4000)).toBe(0)
    expect(run.output).toMatch(/\d+ checks? passed, 0 failed, 0 skipped/)
    expect(proxy.exitCode, proxy.output.slice(-4000)).toBe(0)
    expect(proxy.counts).toMatchObject({ violations: 0 })
    expect(proxy.counts.judged).toBeGreaterThan(500)
  },
)
