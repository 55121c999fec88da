import { execa } from 'execa'
import { beforeAll, describe, expect, test } from 'vitest'
import { MINIMUM_NODE, unsupportedNodeMessage } from '../src/require-supported-node.js'
import { buildCliOnce, MAIN, ROOT } from './support/cli-mock-process.js'

// On a Node older than the kit's engines, the CLI and every entry point of the package stop at once with
// one line naming the Node they need, instead of running until something breaks in a stranger way.

const manifest = (await import('../package.json', { with: { type: 'json' } })).default

/** Node as if it were `version`: process.versions.node replaced before the kit's first module runs. */
const PRETEND = (version: string) =>
  `data:text/javascript,Object.defineProperty(process,'versions',{value:{...process.versions,node:'${version}'}})`

beforeAll(buildCliOnce, 120_000)

test("the oldest Node the code accepts is package.json's engines.node", () => {
  expect(manifest.engines.node).toBe(`>=${MINIMUM_NODE.replace(/\.0$/, '')}`)
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

  test.each(['users-api-kit', 'users-api-kit/fetch', 'users-api-kit/msw'])(
    'importing %s prints the same line, and exits 1',
    async (entry) => {
      const run = await execa(
        'node',
        ['--import', PRETEND('22.12.0'), '--input-type=module', '-e', `await import('${entry}')`],
        {
          reject: false,
          cwd: ROOT,
        },
      )
      expect(run.exitCode).toBe(1)
      expect(run.stderr).toBe(unsupportedNodeMessage('22.12.0'))
    },
  )
})
