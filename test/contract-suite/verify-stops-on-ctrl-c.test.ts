import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildCliOnce, MAIN } from '../support/cli-mock-process.js'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'

// Ctrl-C during verify: the run stops where it is, says where, and writes the reports it was asked for
// with what ran, marked interrupted (or says it wrote none); exit 130, as a shell reports it.

let mock: RunningMock
let directory: string

beforeAll(async () => {
  await buildCliOnce()
  mock = await startMock({ port: 0 })
  directory = await mkdtemp(join(tmpdir(), 'verify-ctrl-c-'))
}, 120_000)

afterAll(async () => {
  await mock?.close()
  await rm(directory, { recursive: true, force: true })
})

/** verify against the mock, sent SIGINT once the first file has reported (its checks are then running). */
async function interruptedRun(args: string[]) {
  const child = execa('node', [MAIN, 'verify', '--base-url', mock.url, ...args], {
    reject: false,
    all: true,
    cwd: directory,
    env: { FORCE_COLOR: '0', NO_COLOR: '1', CI: '' },
  })
  let sent = false
  child.stdout?.on('data', (chunk: Buffer) => {
    if (!sent && / ✓ .*\.contract\.test\.ts/.test(chunk.toString())) {
      sent = true
      child.kill('SIGINT')
    }
  })
  const result = await child
  return { ...result, sent }
}

describe('verify and Ctrl-C', () => {
  test('stops, names the check it stopped at, writes the reports asked for marked interrupted, and exits 130', async () => {
    const run = await interruptedRun(['--out', 'out'])
    expect(run.sent, run.all).toBe(true)
    expect(run.exitCode, run.all).toBe(130)
    expect(run.stderr).toMatch(
      // The check running in the main thread, or none when the signal came as one file ended.
      /users-api-kit verify: interrupted \(Ctrl-C\) (?:at \S+\.contract\.test\.ts > .+|between two files), after \d+ checks?/,
    )
    // What did not run is counted: the checks of the files that had started, and the files that had not (the
    // signal may come as the first file ends, before vitest collected any other).
    expect(run.stdout).toMatch(
      /\d+ checks? passed, \d+ failed, \d+ skipped(?:, [1-9]\d* not run \(\d+ checks\)(?:; [1-9]\d* files? of checks not run)?|; [1-9]\d* files? of checks not run)\./,
    )
    expect(run.stdout).toMatch(/\n {2}[1-9]\d* (?:files? )?not run: verify was interrupted \(Ctrl-C\)/)
    const out = join(directory, 'out')
    expect((await readdir(out)).sort()).toEqual([
      'users-api-kit-verify.html',
      'users-api-kit-verify.json',
      'users-api-kit-verify.xml',
    ])
    expect(await readFile(join(out, 'users-api-kit-verify.xml'), 'utf8')).toContain(
      '<testsuites name="users-api-kit verify (interrupted by Ctrl-C)"',
    )
    const json = JSON.parse(await readFile(join(out, 'users-api-kit-verify.json'), 'utf8')) as { interrupted?: boolean }
    expect(json.interrupted).toBe(true)
    expect(await readFile(join(out, 'users-api-kit-verify.html'), 'utf8')).toMatch(
      /Interrupted \(Ctrl-C\) (?:at |between two files)/,
    )
    expect(run.stderr).toMatch(/interrupted \(Ctrl-C\): the reports hold the \d+ checks that ran, marked interrupted: /)
  }, 120_000)

  test('without report files, says that it wrote none', async () => {
    const run = await interruptedRun([])
    expect(run.exitCode, run.all).toBe(130)
    expect(run.stderr).toContain(
      'users-api-kit verify: interrupted (Ctrl-C): no report was asked for, so none was written.',
    )
  }, 120_000)
})
