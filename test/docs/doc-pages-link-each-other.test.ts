import { afterAll, beforeAll, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'

// The README and docs/ pages the mock serves link to each other as served pages, not as files.

let mock: RunningMock

beforeAll(async () => {
  mock = await startMock({ users: 1 })
})

afterAll(async () => {
  await mock.close()
})

test('every page link of /docs/readme, and of the pages it links to, answers 200', async () => {
  const seen = new Set<string>()
  const queue = ['/docs/readme']
  while (queue.length > 0) {
    const page = queue.shift() as string
    if (seen.has(page)) continue
    seen.add(page)
    const response = await fetch(`${mock.url}${page}`)
    expect(response.status, page).toBe(200)
    const html = await response.text()
    for (const [, link] of html.matchAll(/href="(\/docs\/[a-z0-9-]+)(?:#[^"]*)?"/g)) queue.push(link as string)
  }
  expect([...seen]).toEqual(expect.arrayContaining(['/docs/readme', '/docs/contract']))
  expect(seen.size).toBeGreaterThan(3)
})

test("the reference's own paths stay the reference's: /docs/json is the document", async () => {
  const response = await fetch(`${mock.url}/docs/json`)
  expect(response.status).toBe(200)
  expect(((await response.json()) as { openapi: string }).openapi).toMatch(/^3\.1\./)
})
