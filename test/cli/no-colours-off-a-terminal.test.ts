import { execa } from 'execa'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'
import { buildCliOnce, MAIN, ROOT } from '../support/cli-mock-process.js'

// Output read by a pipe, a file or a CI log carries no ANSI escape: verify's report and the mock's log.

const ESCAPE = '\u001b'
let mock: RunningMock

beforeAll(async () => {
  await buildCliOnce()
  mock = await startMock({ users: 2 })
}, 120_000)

afterAll(async () => {
  await mock.close()
})

/** The parent's colour settings (vitest's own, CI's) must not decide; the pipe does. */
function environment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const inherited = { ...process.env }
  for (const name of ['NO_COLOR', 'FORCE_COLOR', 'CI']) delete inherited[name]
  return { ...inherited, ...extra }
}

test('verify into a pipe: no escape sequence in its report', async () => {
  const run = await execa('node', [MAIN, 'verify', '--base-url', mock.url, '--grep', 'authentication'], {
    cwd: ROOT,
    all: true,
    reject: false,
    env: environment(),
    extendEnv: false,
  })
  expect(run.exitCode, run.all).toBe(0)
  expect(run.all).toContain('checks passed')
  expect(run.all).not.toContain(ESCAPE)
})

test('the mock logging into a pipe: JSON lines, no escape sequence', async () => {
  const cli = execa('node', [MAIN, 'mock', '--port', '0'], {
    cwd: ROOT,
    all: true,
    reject: false,
    env: environment(),
    extendEnv: false,
  })
  const url = await new Promise<string>((resolve) => {
    let output = ''
    cli.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const found = /API\s+(http:\/\/\S+)\/api\/users/.exec(output)?.[1]
      if (found) resolve(found)
    })
  })
  await fetch(`${url}/api/users/me`, { headers: { authorization: 'Bearer owner-token' } })
  cli.kill('SIGTERM')
  const { all } = await cli
  expect(all).toContain('"statusCode":200')
  expect(all).not.toContain(ESCAPE)
})
