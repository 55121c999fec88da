import { existsSync, readFileSync } from 'node:fs'
import { mkdir, rm, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { buildCliOnce, ROOT } from '../support/cli-mock-process.js'
import { freePort } from '../support/free-port.js'
import { envFor, findNodeBin, makeScratch, packKit } from '../support/kit-install.js'
import { POSTGRES_SKIP_REASON, SKIP_POSTGRES, startPostgres, type PostgresServer } from '../support/postgres-server.js'
import { startGroup, stopEveryGroup } from '../support/process-groups.js'
import { checkOutService, runIn, SERVICE_DIR, throughProxy } from '../support/users-service.js'

// examples/users-service/ci.yml as the service's own repository runs it on GitHub: its `run:` steps in
// order, each in bash as GitHub runs them (`bash -eo pipefail`), in a checkout of the example, with the
// Node the workflow sets up. What differs from GitHub, and only this:
// - the database: a PostgreSQL server this test starts (Debian's postgresql, a locale's collation)
//   stands for the `postgres` service container; DATABASE_URL names it;
// - the job's env values that name ports (PORT, BASE_URL, WEBHOOK_LISTEN) take free ones, and
//   MAX_EXAMPLES is 5 (100 on GitHub), for the time npm test has;
// - the kit comes from `npm pack` of this clone instead of github.com, and setup-fuzz finds the
//   Schemathesis this clone's tests set up (.venv/) where it would make its own.
// Then the service the workflow left running meets its end-to-end client through the kit's proxy.

const WORKFLOW = parse(readFileSync(join(SERVICE_DIR, 'ci.yml'), 'utf8')) as {
  jobs: { gate: { env: Record<string, string | number>; steps: Step[]; services: Record<string, unknown> } }
}
const KIT_ON_GITHUB = 'git+https://github.com/users-api-kit/users-api-kit.git'

interface Step {
  name?: string
  uses?: string
  run?: string
  if?: string
  with?: Record<string, unknown>
}

const job = WORKFLOW.jobs.gate
const NODE_MAJOR = Number(job.steps.find((step) => step.uses?.startsWith('actions/setup-node'))?.with?.['node-version'])

let scratch: string
let checkout: string
let server: PostgresServer
let env: Record<string, string | undefined>
const outcomes: Array<{ step: string; exitCode: number | undefined; output: string }> = []

describe.skipIf(SKIP_POSTGRES)(`examples/users-service/ci.yml, on a PostgreSQL server${POSTGRES_SKIP_REASON}`, () => {
  beforeAll(async () => {
    await buildCliOnce()
    scratch = await makeScratch('users-service-ci-')
    checkout = join(scratch, 'users-service')
    await checkOutService(checkout)
    server = await startPostgres()
    const { tarball } = await packKit(scratch)
    // setup-fuzz's folder in this run's cache is this clone's virtual environment, already set up.
    const cache = join(scratch, 'cache')
    await mkdir(join(cache, 'users-api-kit'), { recursive: true })
    await symlink(join(ROOT, '.venv'), join(cache, 'users-api-kit', 'schemathesis-4.32.5'))
    const port = await freePort()
    const nodeBin = findNodeBin(NODE_MAJOR as 22 | 24)
    if (nodeBin === undefined)
      throw new Error(`No Node ${NODE_MAJOR}, which the workflow sets up: bash .ci/run installs it.`)
    env = {
      ...envFor(nodeBin),
      ...Object.fromEntries(Object.entries(job.env).map(([name, value]) => [name, String(value)])),
      DATABASE_URL: server.url,
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
      WEBHOOK_LISTEN: `127.0.0.1:${await freePort()}`,
      MAX_EXAMPLES: '5',
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_RUN_NUMBER: '7',
      XDG_CACHE_HOME: cache,
      KIT_TARBALL: tarball,
    }
  }, 180_000)

  afterAll(async () => {
    await stopEveryGroup()
    await server?.stop()
    if (scratch) await rm(scratch, { recursive: true, force: true })
  })

  test('the workflow names a postgres service container, and the test stands in for it', () => {
    expect(Object.keys(job.services)).toEqual(['postgres'])
    expect(String(job.env['DATABASE_URL'])).toMatch(/^postgres:\/\/\w+:\w+@127\.0\.0\.1:5432\/\w+$/)
  })

  test(
    'its run steps pass, in order, in bash: npm ci, the kit, migrate, start, seed, and a clean gate',
    { timeout: 600_000 },
    async () => {
      for (const step of job.steps.filter((candidate) => candidate.run !== undefined)) {
        if (step.if === 'failure()') continue
        const script = (step.run ?? '').replaceAll(KIT_ON_GITHUB, '"$KIT_TARBALL"')
        expect(script, `${step.name}: a GitHub expression the test cannot evaluate`).not.toMatch(/\$\{\{/)
        const run = startGroup('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
          cwd: checkout,
          env,
        })
        const result = await run.process
        outcomes.push({ step: step.name ?? script, exitCode: result.exitCode, output: run.output() })
        expect(result.exitCode, `${step.name}:\n${run.output()}`).toBe(0)
      }
      const gate = outcomes.find((outcome) => outcome.step.startsWith('Gate'))
      expect(gate?.output).toMatch(/users-api-kit gate: PASSED \(exit 0\)/)
      expect(gate?.output).toMatch(/verify {2}✓ \d+ checks? passed, 0 failed, 0 skipped/)
      const upload = job.steps.find((step) => step.uses?.startsWith('actions/upload-artifact'))
      expect(existsSync(join(checkout, String(upload?.with?.['path'])))).toBe(true)
      expect(readFileSync(join(checkout, 'service.log'), 'utf8')).toMatch(/listening on .* \(PostgreSQL at postgres:/)
    },
  )

  test("the server's collation orders the seeded ids otherwise than code points do: the trap is walked", async () => {
    expect(outcomes.length, 'the workflow ran').toBeGreaterThan(3)
    const byLocale = await server.psql(
      'SELECT string_agg(id, \' \' ORDER BY created_at, id COLLATE "default") FROM users',
    )
    const byCodePoint = await server.psql('SELECT string_agg(id, \' \' ORDER BY created_at, id COLLATE "C") FROM users')
    expect(server.collation).not.toBe('C')
    expect(byLocale).not.toBe(byCodePoint)
  })

  test(
    'its end-to-end client passes through the proxy, which finds no violation in any exchange',
    { timeout: 120_000 },
    async () => {
      const target = join(scratch, 'e2e.target.json')
      const seeded = await runIn(
        checkout,
        'npm',
        ['run', 'seed:contract', '--', '--base-url', env['BASE_URL'] ?? '', '--target', target],
        env,
      )
      expect(seeded.exitCode, seeded.output).toBe(0)
      let e2e = { exitCode: -1, output: '' }
      const proxy = await throughProxy(env['BASE_URL'] ?? '', join(scratch, 'proxy'), async (url) => {
        e2e = await runIn(checkout, 'npm', ['run', 'e2e', '--', '--base-url', url, '--target', target], env)
      })

      expect(e2e.exitCode, e2e.output).toBe(0)
      expect(proxy.exitCode, proxy.output).toBe(0)
      expect(proxy.counts).toMatchObject({ violations: 0, client: 0, unchecked: 0 })
    },
  )

  test('every process the steps started (the service in the background) is gone, its whole group', async () => {
    const leftRunning = await stopEveryGroup()
    // The start step leaves the service running, as a job's step does on GitHub: that group, and the
    // database server's, were still there, and are now stopped whole.
    expect(leftRunning.length).toBe(2)
    expect(await stopEveryGroup()).toEqual([])
  })
})
