import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa, execaSync } from 'execa'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { MINIMUM_NODE, unsupportedNodeMessage } from '../../src/supported-node.js'
import { buildCliOnce, MAIN, ROOT } from '../support/cli-mock-process.js'

// On a Node older than the kit's engines, the CLI stops at once with one line naming the Node it needs;
// importing the package fails with that line as an error the importer can catch (a test runner or a dev
// server that imports it carries on); in a clone, npm ci stops before installing anything.

const manifest = (await import('../../package.json', { with: { type: 'json' } })).default

/** Node as if it were `version`: process.versions.node replaced before the kit's first module runs. */
const PRETEND = (version: string) =>
  `data:text/javascript,Object.defineProperty(process,'versions',{value:{...process.versions,node:'${version}'}})`

/** A real Node the kit does not support: Debian's Node 20 where the machine has it (.ci/run's machines do). */
const OLD_NODE = findOldNode()
const ENTRIES = ['users-api-kit', 'users-api-kit/fetch', 'users-api-kit/msw']

/** An ES module that imports `entry`, catches what it throws, and goes on: what a host process does. */
const importAndCarryOn = (entry: string) =>
  `try { await import('${entry}'); console.log('imported') } catch (error) { console.log(error.message) }
console.log('the host carries on')`

beforeAll(buildCliOnce, 120_000)

test("the oldest Node the code accepts is package.json's engines.node, and a clone's devEngines", () => {
  expect(manifest.engines.node).toBe(`>=${MINIMUM_NODE.replace(/\.0$/, '')}`)
  expect(manifest.devEngines.runtime).toEqual({ name: 'node', version: manifest.engines.node, onFail: 'error' })
})

test.each([
  ['20.19.0', false],
  ['22.12.0', false],
  ['22.13.0', true],
  ['22.20.1', true],
  ['24.0.0', true],
  ['26.1.0', true],
])('Node %s is supported: %s', (version, supported) => {
  expect(unsupportedNodeMessage(version) === undefined).toBe(supported)
})

describe('on Node 22.12', () => {
  test('the CLI prints one line naming the Node it needs, and exits 1', async () => {
    const run = await execa('node', ['--import', PRETEND('22.12.0'), MAIN, 'mock'], { reject: false, cwd: ROOT })
    expect(run.exitCode).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(unsupportedNodeMessage('22.12.0'))
    expect(run.stderr).toContain(`needs Node ${MINIMUM_NODE} or later; this is Node 22.12.0`)
  })

  test.each(ENTRIES)('importing %s fails with that line, which the importer catches and carries on', async (entry) => {
    const run = await execa(
      'node',
      ['--import', PRETEND('22.12.0'), '--input-type=module', '-e', importAndCarryOn(entry)],
      { reject: false, cwd: ROOT },
    )
    expect(run.exitCode, run.stderr).toBe(0)
    expect(run.stdout).toBe(`${unsupportedNodeMessage('22.12.0')}\nthe host carries on`)
    expect(run.stderr).toBe('')
  })

  test('the build stops at its first step with the same line', async () => {
    const run = await execa('node', ['--import', PRETEND('22.12.0'), 'scripts/generate-artifacts.ts', '--check'], {
      reject: false,
      cwd: ROOT,
      env: { NODE_OPTIONS: '--import tsx' },
    })
    expect(run.exitCode).toBe(1)
    expect(run.stderr).toBe(unsupportedNodeMessage('22.12.0'))
  })
})

describe.skipIf(OLD_NODE === undefined)(
  `on a real Node 20 (${OLD_NODE?.version ?? 'skipped: no Node older than 22.13 at /usr/bin/node'})`,
  () => {
    const node = OLD_NODE?.path ?? 'node'
    const version = OLD_NODE?.version.slice(1) ?? ''

    test('the CLI prints one line naming the Node it needs, and exits 1', async () => {
      const run = await execa(node, [MAIN, 'mock'], { reject: false, cwd: ROOT })
      expect(run.exitCode).toBe(1)
      expect(run.stderr).toBe(unsupportedNodeMessage(version))
    })

    test.each(ENTRIES)('importing %s fails with that line, and the importer carries on', async (entry) => {
      const run = await execa(node, ['--input-type=module', '-e', importAndCarryOn(entry)], {
        reject: false,
        cwd: ROOT,
      })
      expect(run.exitCode, run.stderr).toBe(0)
      expect(run.stdout).toBe(`${unsupportedNodeMessage(version)}\nthe host carries on`)
    })

    describe('npm ci in a clone', () => {
      let clone: string
      beforeAll(() => {
        clone = mkdtempSync(join(tmpdir(), 'users-api-kit-old-node-'))
        for (const file of ['package.json', 'package-lock.json']) cpSync(join(ROOT, file), join(clone, file))
      })
      afterAll(() => rmSync(clone, { recursive: true, force: true }))

      test('stops before installing anything, naming the Node it needs (an npm with devEngines: 10.9 or later)', async (context) => {
        const env = { PATH: `${join(node, '..')}:${process.env['PATH'] ?? ''}`, npm_config_update_notifier: 'false' }
        const npmVersion = execaSync('npm', ['--version'], { env, cwd: clone }).stdout
        const [major = 0, minor = 0] = npmVersion.split('.').map(Number)
        if (major < 10 || (major === 10 && minor < 9)) context.skip(`npm ${npmVersion} does not read devEngines`)
        // Bounded: an npm that went on to install would be stopped here, and the check fail.
        const install = await execa('npm', ['ci', '--no-audit', '--no-fund'], {
          env,
          cwd: clone,
          reject: false,
          timeout: 60_000,
        })
        expect(install.timedOut).toBe(false)
        expect(install.exitCode).not.toBe(0)
        expect(install.stderr).toContain(`"${manifest.engines.node}"`)
        expect(install.stderr).toMatch(/EBADDEVENGINES/)
        expect(existsSync(join(clone, 'node_modules'))).toBe(false)
      }, 90_000)
    })
  },
)

function findOldNode(): { path: string; version: string } | undefined {
  const path = '/usr/bin/node'
  if (!existsSync(path)) return undefined
  const version = execaSync(path, ['--version'], { reject: false }).stdout
  return unsupportedNodeMessage(version.replace(/^v/, '')) === undefined ? undefined : { path, version }
}
