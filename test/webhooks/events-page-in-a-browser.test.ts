import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'
import { BROWSER_SKIP_REASON, launchChromium, SKIP_BROWSER } from '../support/chromium.js'
import { startReceiver } from '../support/test-receiver.js'

// docs/mock.md, "Events": a frontend developer watches what the backend would send, in a real browser.

let mock: RunningMock
let browser: Browser
let receiver: Awaited<ReturnType<typeof startReceiver>>

describe.skipIf(SKIP_BROWSER)(`/__mock/events in Chromium${BROWSER_SKIP_REASON}`, { timeout: 60_000 }, () => {
  beforeAll(async () => {
    receiver = await startReceiver()
    mock = await startMock({ users: 2, webhooks: { endpoints: [{ url: receiver.url }] } })
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
    await mock?.close()
    await receiver?.close()
  })

  test('shows each change as it happens, with its delivery, and empties on reset', async () => {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()))
    await page.goto(`${mock.url}/__mock/events`)
    await page.getByText('Live: new events appear').waitFor()
    const response = await fetch(`${mock.url}/api/users/${mock.target.disposable[0]?.id}`, {
      method: 'PATCH',
      headers: { authorization: 'Bearer owner-token', 'content-type': 'application/json' },
      body: JSON.stringify({ name: '<b>Seen live</b>' }),
    })
    expect(response.status).toBe(200)
    const row = page.locator('#events tr').first()
    await expect.poll(() => row.textContent()).toContain('user.updated')
    expect(await row.textContent()).toContain('<b>Seen live</b>') // text, never markup
    await expect.poll(() => row.locator('td').nth(4).textContent()).toContain(`${receiver.url}: delivered (204)`)
    await fetch(`${mock.url}/__mock/reset`, { method: 'POST' })
    await expect.poll(() => page.locator('#events tr').count()).toBe(0)
    expect(errors).toEqual([])
  })
})
