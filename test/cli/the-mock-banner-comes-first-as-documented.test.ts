import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { buildCliOnce, killRunningClis, ROOT, startCli, WITHIN_MS } from '../support/cli-mock-process.js'

// What a newcomer sees first: `users-api-kit mock` (npm start) on a pipe (a CI log, `| tee`) prints its
// banner before any JSON log line, and the README and docs/mock.md show that banner as it is.

beforeAll(buildCliOnce, 120_000)
afterEach(killRunningClis)

/** The banner as the docs show it: the port npm start listens on, and any secret (each start makes one). */
function asDocumented(banner: string): string {
  return banner
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:4010')
    .replace(/whsec_\S+/, 'whsec_…')
    .trim()
}

describe('the mock on a pipe', () => {
  test('prints its banner first, then Fastify\'s "Server listening" line as JSON', async () => {
    const { banner, output, url } = await startCli()
    expect(banner.split('\n')[0]).toMatch(/^users-api-kit mock: \d+ organizations, \d+ users/)
    await expect
      .poll(() => output().slice(banner.length), { timeout: WITHIN_MS })
      .toContain(`"msg":"Server listening at ${url}"`)
  })

  test.each(['README.md', 'docs/mock.md'])('%s shows the banner it prints', async (page) => {
    const { banner } = await startCli()
    const shown = /^users-api-kit mock: [\s\S]*?^Ctrl-C stops it\.$/m.exec(readFileSync(join(ROOT, page), 'utf8'))
    expect(shown?.[0]).toBe(asDocumented(banner))
  })
})
