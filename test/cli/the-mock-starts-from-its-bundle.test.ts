import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildCliOnce, killRunningClis, ROOT, startCli } from '../support/cli-mock-process.js'

// `users-api-kit mock` starts from dist/bin/, the bundle `npm run build` makes (decision 0013): a start
// that read tsc's modules one by one again (a path import the bundle missed, a command bundled apart)
// would cost its cold start some 30 ms, and no functional test would notice.

const RECORDER = pathToFileURL(join(ROOT, 'test/support/record-loaded-modules.mjs')).href
const DIST = pathToFileURL(join(ROOT, 'dist/')).href
const scratch = mkdtempSync(join(tmpdir(), 'bundle-start-'))

beforeAll(buildCliOnce)
afterEach(killRunningClis)
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('the mock command starts from its bundle', () => {
  it('loads from dist/ only the bundle and the Node version check, at start and on the routes that load more', async () => {
    const record = join(scratch, 'loaded.txt')
    // A document of one's own (Ajv compiles it) and a webhook endpoint (its signing library loads with the
    // first delivery): each loads a chunk of its own.
    const { url } = await startCli(
      ['--quiet', '--spec', 'openapi/users.yaml', '--webhook', 'http://127.0.0.1:9/hooks'],
      {
        env: { NODE_OPTIONS: `--import=${RECORDER}`, RECORD_LOADED_MODULES: record },
      },
    )
    const me = await fetch(`${url}/api/users/me`, { headers: { authorization: 'Bearer owner-token' } })
    expect(me.status).toBe(200)
    const startedWith = readFileSync(record, 'utf8')
      .split('\n')
      .filter((loaded) => loaded.startsWith(DIST)).length
    // What loads on first use (the reference and its document, the control routes, a delivery): from the bundle too.
    for (const [method, path] of [
      ['GET', '/docs'],
      ['GET', '/openapi.json'],
      ['GET', '/docs/readme'],
      ['POST', '/__mock/reset'],
    ] as const) {
      expect((await fetch(`${url}${path}`, { method })).status, `${method} ${path}`).toBe(200)
    }
    const { data: owner } = (await me.json()) as { data: { id: string } }
    const renamed = await fetch(`${url}/api/users/${owner.id}`, {
      method: 'PATCH',
      headers: { authorization: 'Bearer owner-token', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Renamed Owner' }),
    })
    expect(renamed.status).toBe(200)
    await expect.poll(() => readFileSync(record, 'utf8')).toMatch(/standardwebhooks/)

    const fromDist = readFileSync(record, 'utf8')
      .split('\n')
      .filter((loaded) => loaded.startsWith(DIST))
      .map((loaded) => loaded.slice(DIST.length))
    expect(fromDist).toContain('bin/users-api-kit.js')
    // The Node check stays tsc's file, run before the bundle (scripts/bundle-cli.ts).
    const nodeCheck = ['cli/stop-on-an-older-node.js', 'supported-node.js']
    expect(fromDist.filter((file) => !file.startsWith('bin/') && !nodeCheck.includes(file))).toEqual([])
    // A handful of chunks, not the ~90 modules of tsc's output.
    expect(startedWith).toBeLessThan(12)
  })
})
