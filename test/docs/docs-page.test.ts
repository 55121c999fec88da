import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'
import { BROWSER_SKIP_REASON, launchChromium, SKIP_BROWSER } from '../support/chromium.js'

// /docs is the kit's own reference, used as a person uses it: in a real browser, Try it out included.

let mock: RunningMock
let browser: Browser
let page: Page

describe.skipIf(SKIP_BROWSER)(`/docs in Chromium${BROWSER_SKIP_REASON}`, { timeout: 60_000 }, () => {
  beforeAll(async () => {
    mock = await startMock({ users: 3 })
    browser = await launchChromium()
    page = await browser.newPage()
    await page.goto(`${mock.url}/docs`)
    await page.locator('.opblock').first().waitFor()
  })

  afterAll(async () => {
    await browser?.close()
    await mock?.close()
  })

  test("its title is the kit's, and it links to the contract and the README", async () => {
    expect(await page.title()).toBe('users-api-kit · the users API mock')
    expect(await page.locator('a[href="/docs/contract"]').count()).toBeGreaterThan(0)
    expect(await page.locator('a[href="/docs/readme"]').count()).toBeGreaterThan(0)
  })

  test("the Authorize dialog lists this mock's tokens", async () => {
    await page.locator('button.authorize').first().click()
    const dialog = page.locator('.auth-container').first()
    await dialog.waitFor()
    const text = await dialog.innerText()
    expect(text).toContain('owner-token')
    expect(text).toContain('CLIENT_OWNER')
  })

  test('Try it out with owner-token: GET /api/users/me answers 200', async () => {
    await page.locator('.auth-container input').first().fill('owner-token')
    await page.locator('.auth-btn-wrapper button.authorize').click()
    await page.locator('.auth-btn-wrapper button.btn-done, button.close-modal').first().click()
    const operation = page.locator('#operations-users-getCurrentUser')
    await operation.locator('.opblock-summary').click()
    const tryItOut = operation.locator('button.try-out__btn')
    if ((await tryItOut.count()) > 0 && (await tryItOut.innerText()).includes('Try it out')) await tryItOut.click()
    await operation.locator('button.execute').click()
    const status = operation.locator('.live-responses-table tr.response .response-col_status').first()
    await status.waitFor()
    expect((await status.innerText()).trim()).toMatch(/^200/)
  })

  test('the contract page is served, from docs/contract.md', async () => {
    const contract = await browser.newPage()
    await contract.goto(`${mock.url}/docs/contract`)
    expect(await contract.title()).toBe('The users API contract · users-api-kit')
    expect(await contract.locator('h2').allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^2\. /)]),
    )
    await contract.close()
  })
})
