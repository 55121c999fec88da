import { existsSync, readFileSync } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { parse } from 'yaml'
import { gateDisposableUsers } from '../../src/cli/gate-prerequisites.js'
import { buildCliOnce, ROOT } from '../support/cli-mock-process.js'
import { cloneKit, envFor, findNodeBin, makeScratch } from '../support/kit-install.js'
import { freePort } from '../support/free-port.js'
import { startGroup, stopEveryGroup } from '../support/process-groups.js'

// examples/github-actions-gate.yml as a backend's CI would run it: its `run:` steps in order, each in
// bash as GitHub runs them (`bash -eo pipefail`), in a fresh checkout folder, with the Node the workflow
// sets up. Three things differ from GitHub, and only these: the kit comes from a clean clone of this
// repository instead of github.com, the backend its two PLACEHOLDER steps stand for is the kit's own mock
// (on a free port) with the target the mock writes, and the secrets are not needed for that target.

const WORKFLOW_PATH = join(ROOT, 'examples/github-actions-gate.yml')
const KIT_ON_GITHUB = 'git+https://github.com/users-api-kit/users-api-kit.git'

interface Step {
  name?: string
  uses?: string
  run?: string
  env?: Record<string, string>
  with?: Record<string, unknown>
}

const workflow = parse(readFileSync(WORKFLOW_PATH, 'utf8')) as {
  jobs: { gate: { env: Record<string, string>; steps: Step[] } }
}
const job = workflow.jobs.gate
const NODE_MAJOR = Number(job.steps.find((step) => step.uses?.startsWith('actions/setup-node'))?.with?.['node-version'])

let scratch: string
let checkout: string
let kitSpec: string
let baseUrl: string
const outcomes: Array<{ step: string; exitCode: number | undefined; output: string }> = []

/** What runs instead of each PLACEHOLDER step: the kit's mock as the backend, and the target it writes. */
function placeholderStandIn(step: Step): string | undefined {
  if (!step.name?.includes('PLACEHOLDER')) return undefined
  if (/start the backend/i.test(step.name)) {
    const port = new URL(baseUrl).port
    return `npx users-api-kit mock --port ${port} > backend.log 2>&1 &`
  }
  if (/target file/i.test(step.name)) {
    return `curl --silent --show-error --fail -X POST "$BASE_URL/__mock/target?disposable=${gateDisposableUsers(false)}" > users-api.target.json`
  }
  throw new Error(`No stand-in for the step "${step.name}": say in this test what replaces it.`)
}

beforeAll(async () => {
  await buildCliOnce()
  scratch = await makeScratch('users-api-kit-ci-example-')
  kitSpec = await cloneKit(join(scratch, 'clone'))
  checkout = join(scratch, 'backend')
  await mkdir(checkout)
  baseUrl = `http://127.0.0.1:${await freePort()}`
}, 120_000)

afterAll(async () => {
  await stopEveryGroup()
  if (scratch) await rm(scratch, { recursive: true, force: true })
})

test('docs/gate.md describes this very file: its steps in order, the Node it sets up, how it installs the kit', () => {
  const page = readFileSync(join(ROOT, 'docs/gate.md'), 'utf8')
  const gateDoc = page.slice(page.indexOf('## In GitHub Actions'))
  const described = [...gateDoc.matchAll(/^\| `([^`]+)`\s+\|/gm)].map((match) => match[1])
  expect(described).toEqual(job.steps.map((step) => step.name).filter((name) => name !== undefined))
  const install =
    job.steps
      .find((step) => step.run?.includes(KIT_ON_GITHUB))
      ?.run?.split('\n')[0]
      ?.trim() ?? ''
  expect(gateDoc).toContain(`\`${install}\``)
  expect(gateDoc).toContain(`Node ${NODE_MAJOR}`)
})

test(
  'its run steps pass, in order, in bash: the kit installed from git, Schemathesis set up, the gate clean',
  { timeout: 600_000 },
  async () => {
    const nodeBin = findNodeBin(NODE_MAJOR as 22 | 24)
    if (nodeBin === undefined)
      throw new Error(
        `No Node ${NODE_MAJOR}, which the workflow sets up: npm test installs it into .tools/ (node scripts/install-node.mjs).`,
      )
    const env = {
      ...envFor(nodeBin),
      ...job.env,
      BASE_URL: baseUrl,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_RUN_NUMBER: '7',
      // setup-fuzz's virtual environment in a cache folder of this run; pip's own cache stays where it was,
      // so that Schemathesis comes from it rather than from PyPI.
      XDG_CACHE_HOME: join(scratch, 'cache'),
      PIP_CACHE_DIR: process.env['PIP_CACHE_DIR'] ?? join(homedir(), '.cache', 'pip'),
    }
    for (const step of job.steps.filter((candidate) => candidate.run !== undefined)) {
      const script = placeholderStandIn(step) ?? (step.run ?? '').replaceAll(KIT_ON_GITHUB, kitSpec)
      expect(script, `${step.name}: a GitHub expression the test cannot evaluate`).not.toMatch(/\$\{\{/)
      const run = startGroup('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
        cwd: checkout,
        env: { ...env, ...(placeholderStandIn(step) ? {} : step.env) },
      })
      const result = await run.process
      outcomes.push({ step: step.name ?? script, exitCode: result.exitCode, output: run.output() })
      expect(result.exitCode, `${step.name}:\n${run.output()}`).toBe(0)
    }
    const gate = outcomes.find((outcome) => outcome.step.startsWith('Gate'))
    expect(gate?.output).toMatch(/users-api-kit gate: PASSED \(exit 0\)/)
  },
)

test('the JUnit file the upload step names is there', () => {
  const upload = job.steps.find((step) => step.uses?.startsWith('actions/upload-artifact'))
  expect(existsSync(join(checkout, String(upload?.with?.['path'])))).toBe(true)
})

test('every process the steps started (the backend in the background) is gone, its whole group', async () => {
  expect(outcomes.length).toBeGreaterThan(3)
  const leftRunning = await stopEveryGroup()
  // The backend's step leaves the mock running in the background, as a job's step does on GitHub: that
  // group, and only it, was still there, and is now stopped whole.
  expect(leftRunning.length).toBe(1)
  expect(await stopEveryGroup()).toEqual([])
})
