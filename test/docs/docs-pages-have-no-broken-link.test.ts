import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'
import { BROWSER_SKIP_REASON, launchChromium, SKIP_BROWSER } from '../support/chromium.js'
import { ROOT } from '../support/cli-mock-process.js'

// /docs and the pages it links to, in Chromium as a reader sees them (the reference is drawn by script):
// every link the mock serves answers 200, every link to a file of the kit in its repository names a
// file the kit has, and no link is a placeholder (example.org, the swagger "Website" it used to show).

const REPOSITORY = (await import('../../package.json', { with: { type: 'json' } })).default.homepage.replace(/#.*$/, '')

let mock: RunningMock
let browser: Browser
/** Every link of every page reached from /docs: where it is, its text, its target. */
const links: Array<{ page: string; text: string; href: string }> = []

describe.skipIf(SKIP_BROWSER)(`/docs and its pages, in Chromium${BROWSER_SKIP_REASON}`, { timeout: 60_000 }, () => {
  beforeAll(async () => {
    mock = await startMock({ users: 2, disposable: 0 })
    browser = await launchChromium()
    const page = await browser.newPage()
    const queue = ['/docs']
    const seen = new Set<string>()
    while (queue.length > 0) {
      const path = queue.shift() as string
      if (seen.has(path)) continue
      seen.add(path)
      for (const link of await linksOf(page, path)) {
        links.push({ page: path, ...link })
        const url = new URL(link.href)
        if (url.origin === mock.url && /^\/docs\/[a-z0-9-]+$/.test(url.pathname)) queue.push(url.pathname)
      }
    }
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await mock?.close()
  })

  test('the reference and every page it leads to were read', () => {
    const pages = new Set(links.map((link) => link.page))
    expect([...pages]).toEqual(expect.arrayContaining(['/docs', '/docs/readme', '/docs/contract', '/docs/mock']))
  })

  test('every link to the mock itself answers 200', async () => {
    const broken: string[] = []
    for (const link of links.filter((candidate) => candidate.href.startsWith(mock.url))) {
      const status = (await fetch(link.href.split('#')[0] ?? link.href)).status
      if (status !== 200) broken.push(`${link.page}: "${link.text}" → ${link.href} (${status})`)
    }
    expect(broken).toEqual([])
  })

  test("every link into the kit's repository names a file or folder the kit has", () => {
    const missing = links
      .filter((link) => link.href.startsWith(`${REPOSITORY}/`))
      .map((link) => ({ link, path: /\/(?:blob|tree)\/main\/(.+)$/.exec(link.href)?.[1] }))
      .filter(({ path }) => path === undefined || !existsSync(join(ROOT, decodeURIComponent(path))))
      .map(({ link }) => `${link.page}: "${link.text}" → ${link.href}`)
    expect(missing).toEqual([])
  })

  test('no link is a placeholder', () => {
    const placeholders = links
      .filter((link) => /(^|\.)example\.(org|com|net)$|^localhost$/.test(new URL(link.href).hostname))
      .map((link) => `${link.page}: "${link.text}" → ${link.href}`)
    expect(placeholders).toEqual([])
  })
})

/** The links of a page once it is drawn (the reference by Swagger UI's script), fragments of itself left out. */
async function linksOf(page: Page, path: string): Promise<Array<{ text: string; href: string }>> {
  await page.goto(`${mock.url}${path}`)
  if (path === '/docs') await page.waitForSelector('.info a[href]', { timeout: 20_000 })
  // Run in the page: an anchor's href property is the link resolved against the page.
  const found = await page.$$eval('a[href]', (anchors) =>
    anchors.map((anchor) => {
      const { href, textContent } = anchor as unknown as { href: string; textContent: string | null }
      return { text: (textContent ?? '').trim(), href }
    }),
  )
  return found.filter(({ href }) => !href.startsWith(`${mock.url}${path}#`) && /^https?:/.test(href))
}
