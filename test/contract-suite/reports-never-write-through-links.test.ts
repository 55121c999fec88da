import { lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { REPORT_FILES } from '../../src/cli/report-files.js'
import { writeReportFile } from '../../src/files/write-report-file.js'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'
import { buildCliOnce, MAIN } from '../support/cli-mock-process.js'

// --out wrote its reports through a symbolic link planted at a report's name (in a folder others can
// write to, the link can name any file of the user's). Reports are now written as the state file is: a
// temporary file of their own, renamed over the name, which replaces a link and never follows it.

const VICTIM_TEXT = 'the victim, untouched\n'

let folder: string
let mock: RunningMock

beforeAll(async () => {
  await buildCliOnce()
  folder = await mkdtemp(join(tmpdir(), 'users-api-kit-links-'))
  mock = await startMock({ users: 2 })
}, 120_000)

afterAll(async () => {
  await mock?.close()
  await rm(folder, { recursive: true, force: true })
})

/** A folder whose report names are links to victims of their own; answers the victims' paths. */
async function plantLinks(out: string, names: string[]): Promise<string[]> {
  await mkdir(out, { recursive: true })
  return Promise.all(
    names.map(async (name) => {
      const victim = join(folder, `victim-of-${name}`)
      await writeFile(victim, VICTIM_TEXT)
      await symlink(victim, join(out, name))
      return victim
    }),
  )
}

describe('reports and planted links', () => {
  test('writeReportFile replaces a link at its name and leaves the file it named alone', async () => {
    const [victim] = await plantLinks(join(folder, 'unit'), ['report.xml'])
    await writeReportFile(join(folder, 'unit', 'report.xml'), '<testsuites/>')
    expect(await readFile(victim as string, 'utf8')).toBe(VICTIM_TEXT)
    expect((await lstat(join(folder, 'unit', 'report.xml'))).isSymbolicLink()).toBe(false)
    expect(await readFile(join(folder, 'unit', 'report.xml'), 'utf8')).toBe('<testsuites/>')
  })

  test('verify --out writes its JUnit, JSON and HTML reports in place of the links, through none of them', async () => {
    const out = join(folder, 'out')
    const names = [REPORT_FILES.verifyJunit, REPORT_FILES.verifyJson, REPORT_FILES.verifyHtml]
    const victims = await plantLinks(out, names)
    const result = await execa(
      'node',
      [MAIN, 'verify', '--base-url', mock.url, '--out', out, '--grep', 'GET /api/users/me', '--no-strict'],
      { reject: false, all: true, env: { NO_COLOR: '1' }, timeout: 120_000 },
    )
    expect(result.exitCode, result.all).toBe(0)
    for (const victim of victims) expect(await readFile(victim, 'utf8')).toBe(VICTIM_TEXT)
    for (const name of names) {
      expect((await lstat(join(out, name))).isSymbolicLink(), name).toBe(false)
      expect((await readFile(join(out, name), 'utf8')).length, name).toBeGreaterThan(100)
    }
  }, 120_000)
})
