import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { userCacheFolder } from '../../src/files/user-cache-folder.js'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'

// verify keeps the code Node compiles for it (src/cli/main.ts) in the user's own cache folder. Node's
// default, os.tmpdir()/node-compile-cache, is on Linux shared by every local user: whoever creates it first
// owns it, and could leave compiled code there for another user's verify to load.

/** A verify of one check, from a cold compile cache on a busy machine: well within this. */
const RUN_TIMEOUT_MS = 120_000

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

function verify(cwd: string, env: Record<string, string>) {
  return execa(
    'node',
    [
      join(process.cwd(), 'dist/bin/users-api-kit.js'),
      'verify',
      '--base-url',
      mock.url,
      '--grep',
      'GET /api/users/me',
      '--no-strict',
    ],
    {
      cwd,
      reject: false,
      all: true,
      env: { PATH: process.env['PATH'] ?? '', FORCE_COLOR: '0', NO_COLOR: '1', ...env },
      extendEnv: false,
      timeout: RUN_TIMEOUT_MS,
    },
  )
}

test(
  'verify keeps its compiled code under XDG_CACHE_HOME/users-api-kit, nothing in the temporary folder',
  async () => {
    const temporary = join(scratch, 'tmp')
    const cache = join(scratch, 'cache')
    await mkdir(temporary)
    const run = await verify(scratch, { TMPDIR: temporary, XDG_CACHE_HOME: cache, HOME: scratch })
    expect(run.exitCode, run.all).toBe(0)
    expect(await readdir(temporary)).toEqual([])
    expect((await readdir(join(cache, 'users-api-kit', 'compile-cache'))).length).toBeGreaterThan(0)
  },
  RUN_TIMEOUT_MS,
)

test(
  'a relative XDG_CACHE_HOME is ignored (the XDG spec): the cache goes under ~/.cache, nothing into the current folder',
  async () => {
    const home = join(scratch, 'home')
    const current = join(scratch, 'current')
    await mkdir(current)
    const run = await verify(current, { TMPDIR: scratch, HOME: home, XDG_CACHE_HOME: 'relative-cache' })
    expect(run.exitCode, run.all).toBe(0)
    expect(await readdir(current)).toEqual([])
    expect((await readdir(join(home, '.cache', 'users-api-kit', 'compile-cache'))).length).toBeGreaterThan(0)
  },
  RUN_TIMEOUT_MS,
)

test('no cache folder when no absolute place is known: a home that is empty, relative or unknown', () => {
  const unknown = () => {
    throw new Error('uv_os_homedir returned ENOENT')
  }
  expect(userCacheFolder({ XDG_CACHE_HOME: '/c' }, unknown)).toBe('/c/users-api-kit')
  expect(userCacheFolder({}, () => '/home/ada')).toBe('/home/ada/.cache/users-api-kit')
  expect(userCacheFolder({ XDG_CACHE_HOME: 'c' }, () => '/home/ada')).toBe('/home/ada/.cache/users-api-kit')
  expect(userCacheFolder({}, unknown)).toBeUndefined()
  expect(userCacheFolder({}, () => '')).toBeUndefined()
  expect(userCacheFolder({ XDG_CACHE_HOME: '' }, () => 'home')).toBeUndefined()
})
