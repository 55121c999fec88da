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

/**
 * Where verify runs and with what environment (given the scratch folder), the folder that must stay empty, and
 * where the compiled code must be instead.
 */
const PLACES: Array<
  [string, (scratch: string) => { cwd: string; env: Record<string, string>; empty: string; cache: string }]
> = [
  [
    'verify keeps its compiled code under XDG_CACHE_HOME/users-api-kit, nothing in the temporary folder',
    (root) => ({
      cwd: root,
      env: { TMPDIR: join(root, 'tmp'), XDG_CACHE_HOME: join(root, 'cache'), HOME: root },
      empty: join(root, 'tmp'),
      cache: join(root, 'cache', 'users-api-kit', 'compile-cache'),
    }),
  ],
  [
    'a relative XDG_CACHE_HOME is ignored (the XDG spec): the cache goes under ~/.cache, nothing into the current folder',
    (root) => ({
      cwd: join(root, 'current'),
      env: { TMPDIR: root, HOME: join(root, 'home'), XDG_CACHE_HOME: 'relative-cache' },
      empty: join(root, 'current'),
      cache: join(root, 'home', '.cache', 'users-api-kit', 'compile-cache'),
    }),
  ],
]

test.each(PLACES)(
  '%s',
  async (_name, place) => {
    const { cwd, env, empty, cache } = place(scratch)
    await mkdir(empty, { recursive: true })
    const run = await verify(cwd, env)
    expect(run.exitCode, run.all).toBe(0)
    expect(await readdir(empty)).toEqual([])
    expect((await readdir(cache)).length).toBeGreaterThan(0)
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
