import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { findSchemathesis } from '../../src/fuzz/find-schemathesis.js'
import { SCHEMATHESIS_VERSION, schemathesisIn, userVirtualenvDir } from '../../src/fuzz/schemathesis-places.js'
import { buildCliOnce, MAIN, ROOT } from '../support/cli-mock-process.js'

// `users-api-kit setup-fuzz`: Schemathesis for a user of the package, in a private virtual environment
// under their cache folder (Debian's system Python refuses `pip install`), where `fuzz` then finds it.

let cache: string

beforeAll(async () => {
  await buildCliOnce()
  cache = await mkdtemp(join(tmpdir(), 'users-api-kit-cache-'))
}, 120_000)

afterAll(async () => {
  await rm(cache, { recursive: true, force: true })
})

test('the virtual environment lives under XDG_CACHE_HOME, else ~/.cache', () => {
  expect(userVirtualenvDir({ XDG_CACHE_HOME: '/c' })).toBe(`/c/users-api-kit/schemathesis-${SCHEMATHESIS_VERSION}`)
  expect(userVirtualenvDir({}, () => '/home/ada')).toBe(
    `/home/ada/.cache/users-api-kit/schemathesis-${SCHEMATHESIS_VERSION}`,
  )
})

test('setup-fuzz creates it with the pinned Schemathesis, says where, and fuzz finds it there', async () => {
  // pip's own cache stays where it was, so that the test installs from it rather than from PyPI.
  const env = { XDG_CACHE_HOME: cache, PIP_CACHE_DIR: process.env['PIP_CACHE_DIR'] ?? join(homedir(), '.cache', 'pip') }
  const run = await execa('node', [MAIN, 'setup-fuzz'], { cwd: ROOT, env, all: true, reject: false })
  expect(run.exitCode, run.all).toBe(0)
  const st = schemathesisIn(userVirtualenvDir({ XDG_CACHE_HOME: cache }) ?? '')
  expect(run.all).toContain(`Schemathesis ${SCHEMATHESIS_VERSION} is ready: ${st}`)
  expect((await execa(st, ['--version'])).stdout).toContain(SCHEMATHESIS_VERSION)
  const found = findSchemathesis({
    env: { XDG_CACHE_HOME: cache, PATH: '' },
    packageRoot: '/nowhere',
    isClone: false,
    isExecutable: existsSync,
  })
  expect(found).toEqual({ path: st, source: 'setup-fuzz' })
  // Again: nothing to do, at once.
  const again = await execa('node', [MAIN, 'setup-fuzz'], { cwd: ROOT, env, all: true })
  expect(again.all).not.toContain('Installing')
}, 240_000)

test('without Schemathesis, a package user is told the one command: npx users-api-kit setup-fuzz', () => {
  expect(() =>
    findSchemathesis({
      env: { XDG_CACHE_HOME: '/nowhere', PATH: '' },
      packageRoot: '/nowhere',
      isClone: false,
      isExecutable: () => false,
    }),
  ).toThrow(/Install it with: npx users-api-kit setup-fuzz/)
})
