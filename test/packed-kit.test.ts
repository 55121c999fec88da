import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa, type ResultPromise } from 'execa'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ROOT } from './support/cli-mock-process.js'

// The kit as a user gets it: packed, installed into an empty project from the tarball (the package is
// not on the registry), then used there with npx and from a test file. Dependencies come from npm's
// cache where it has them (the kit's own install filled it).

let scratch: string
let project: string
let installOutput: string
const started: ResultPromise[] = []

const VERSION = (await import('../package.json', { with: { type: 'json' } })).default.version

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'users-api-kit-pack-'))
  project = join(scratch, 'app')
  await mkdir(project)
  // npm test built dist/ already; prepack would build it again under the feet of other test files.
  await execa('npm', ['pack', '--ignore-scripts', '--pack-destination', scratch], { cwd: ROOT })
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }))
  const msw = (await import('../package.json', { with: { type: 'json' } })).default.devDependencies.msw
  const install = await execa(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      join(scratch, `users-api-kit-${VERSION}.tgz`),
      `msw@${msw}`,
    ],
    { cwd: project, all: true, reject: false },
  )
  installOutput = install.all ?? ''
  expect(install.exitCode, installOutput).toBe(0)
}, 240_000)

afterAll(async () => {
  for (const child of started) child.kill('SIGKILL')
  await rm(scratch, { recursive: true, force: true })
})

/** Starts `npx users-api-kit mock` in the project and resolves to its URL once the banner says it. */
async function startInstalledMock(): Promise<string> {
  const mock = execa('npx', ['users-api-kit', 'mock', '--port', '0', '--quiet'], { cwd: project, reject: false })
  started.push(mock)
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => reject(new Error(`No banner within 30 s:\n${output}`)), 30_000)
    mock.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const url = /API\s+(http:\/\/\S+)\/api\/users/.exec(output)?.[1]
      if (url) {
        clearTimeout(timer)
        resolve(url)
      }
    })
  })
}

describe('the packed kit, installed into an empty project', { timeout: 120_000 }, () => {
  test('installs without an engine warning on this Node, and ships what the README links to', async () => {
    expect(installOutput).not.toMatch(/EBADENGINE/)
    const shipped = join(project, 'node_modules', 'users-api-kit')
    const files = await readdir(shipped)
    for (const file of ['LICENSE', 'README.md', 'BENCHMARKS.md', 'docs', 'openapi', 'dist', 'examples']) {
      expect(files).toContain(file)
    }
    expect(await readdir(join(shipped, 'docs'))).toContain('contract.md')
  })

  test('npx users-api-kit mock serves the API and the contract page; verify --base-url passes it', async () => {
    const url = await startInstalledMock()
    const me = await fetch(`${url}/api/users/me`, { headers: { authorization: 'Bearer owner-token' } })
    expect(me.status).toBe(200)
    expect((await fetch(`${url}/docs/contract`)).status).toBe(200)
    const verify = await execa('npx', ['users-api-kit', 'verify', '--base-url', url], {
      cwd: project,
      all: true,
      reject: false,
    })
    expect(verify.exitCode, verify.all).toBe(0)
    expect(verify.all).toMatch(/checks passed, 0 failed/)
  })

  test('npx users-api-kit proxy is there, in front of the installed mock: its checks run from dist/', async () => {
    const url = await startInstalledMock()
    const proxy = execa('npx', ['users-api-kit', 'proxy', '--upstream', url, '--port', '0'], {
      cwd: project,
      reject: false,
    })
    started.push(proxy)
    const proxyUrl = await new Promise<string>((resolve, reject) => {
      let output = ''
      const timer = setTimeout(() => reject(new Error(`No banner within 30 s:\n${output}`)), 30_000)
      proxy.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString()
        const match = /Point your app at\s+(http:\/\/\S+)/.exec(output)?.[1]
        if (match) {
          clearTimeout(timer)
          resolve(match)
        }
      })
    })
    expect((await fetch(`${proxyUrl}/api/users/me`, { headers: { authorization: 'Bearer owner-token' } })).status).toBe(
      200,
    )
    expect(
      (await fetch(`${proxyUrl}/api/users?limit=0`, { headers: { authorization: 'Bearer owner-token' } })).status,
    ).toBe(400)
    await expect
      .poll(
        async () =>
          ((await (await fetch(`${proxyUrl}/__proxy/violations`)).json()) as { counts: { judged: number } }).counts
            .judged,
      )
      .toBe(2)
    const { counts } = (await (await fetch(`${proxyUrl}/__proxy/violations`)).json()) as {
      counts: Record<string, number>
    }
    expect(counts).toMatchObject({ violations: 0, client: 1 })
  })

  test('a test file of the project uses startMock and the MSW handlers', async () => {
    await writeFile(
      join(project, 'kit.test.js'),
      `import { setupServer } from 'msw/node'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startMock } from 'users-api-kit'
import { createMockHandlers } from 'users-api-kit/msw'

const { handlers, mock } = createMockHandlers({ baseUrl: 'http://backend.test' })
const server = setupServer(...handlers)
// The real mock started below is not MSW's to answer.
beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }))
afterAll(() => server.close())

test('startMock answers over HTTP', async () => {
  const running = await startMock({ users: 2 })
  const response = await fetch(running.url + '/api/users/me', { headers: { authorization: 'Bearer viewer-token' } })
  expect((await response.json()).data.role).toBe('CLIENT_VIEWER')
  await running.close()
})

test('the MSW handlers answer without a server, and reset', async () => {
  const headers = { authorization: 'Bearer owner-token', 'content-type': 'application/json' }
  const list = await (await fetch('http://backend.test/api/users?limit=1', { headers })).json()
  const id = list.data[0].id
  const renamed = await fetch('http://backend.test/api/users/' + id, { method: 'PATCH', headers, body: '{"name":"Renamed"}' })
  expect(renamed.status).toBe(200)
  ;(await mock).reset()
  const again = await (await fetch('http://backend.test/api/users/' + id, { headers })).json()
  expect(again.data.name).not.toBe('Renamed')
})
`,
    )
    const run = await execa('npx', ['vitest', 'run', 'kit.test.js'], { cwd: project, all: true, reject: false })
    expect(run.exitCode, run.all).toBe(0)
    expect(run.all).toMatch(/2 passed/)
  })
})
