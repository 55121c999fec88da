import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'

// verify keeps the code Node compiles for it (src/cli/main.ts) in the user's own cache folder. Node's
// default, os.tmpdir()/node-compile-cache, is shared by every local user: whoever creates it first owns it,
// and could leave compiled code there for another user's verify to load.

let mock: RunningMock
let scratch: string

beforeAll(async () => {
  mock = await startMock({ users: 2 })
  scratch = await mkdtemp(join(tmpdir(), 'verify-compile-cache-'))
})

afterAll(async () => {
  await mock?.close()
  await rm(scratch, { recursive: true, force: true })
})

function verify(env: Record<string, string>) {
  return execa(
    'node',
    ['dist/bin/users-api-kit.js', 'verify', '--base-url', mock.url, '--grep', 'GET /api/users/me', '--no-strict'],
    { reject: false, all: true, env: { FORCE_COLOR: '0', NO_COLOR: '1', ...env }, extendEnv: false, timeout: 120_000 },
  )
}

test('verify keeps its compiled code under XDG_CACHE_HOME/users-api-kit, nothing in the shared temporary folder', async () => {
  const temporary = join(scratch, 'tmp')
  const cache = join(scratch, 'cache')
  await mkdir(temporary)
  const run = await verify({ PATH: process.env['PATH'] ?? '', TMPDIR: temporary, XDG_CACHE_HOME: cache, HOME: scratch })
  expect(run.exitCode, run.all).toBe(0)
  expect(await readdir(temporary)).toEqual([])
  expect((await readdir(join(cache, 'users-api-kit', 'compile-cache'))).length).toBeGreaterThan(0)
})

test('without XDG_CACHE_HOME, under ~/.cache; NODE_COMPILE_CACHE still names another folder', async () => {
  const home = join(scratch, 'home')
  const named = join(scratch, 'named')
  const run = await verify({ PATH: process.env['PATH'] ?? '', TMPDIR: scratch, HOME: home })
  expect(run.exitCode, run.all).toBe(0)
  expect((await readdir(join(home, '.cache', 'users-api-kit', 'compile-cache'))).length).toBeGreaterThan(0)
  const elsewhere = await verify({
    PATH: process.env['PATH'] ?? '',
    TMPDIR: scratch,
    HOME: home,
    NODE_COMPILE_CACHE: named,
  })
  expect(elsewhere.exitCode, elsewhere.all).toBe(0)
  expect((await readdir(named)).length).toBeGreaterThan(0)
})
