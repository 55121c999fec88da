import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startProxy, type RunningProxy } from '../../src/proxy/start-proxy.js'
import { BROWSER_SKIP_REASON, launchChromium, SKIP_BROWSER } from '../support/chromium.js'

// Issue 23: the live page at /__proxy/, in a real browser: a violation appears as it happens, with its
// exchange and curl, the upstream's text as text (never markup), and no token.

const MARKUP = '<img src=x onerror="document.title=\'owned\'">'
const TOKEN = 'page-secret-token'

let upstream: Server
let proxy: RunningProxy
let browser: Browser

describe.skipIf(SKIP_BROWSER)(`/__proxy/ in Chromium${BROWSER_SKIP_REASON}`, { timeout: 60_000 }, () => {
  beforeAll(async () => {
    // A user without createdAt, named with markup: body-matches-schema's violation, and text to escape.
    upstream = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify({
          data: {
            id: 'usr_1',
            name: MARKUP,
            email: 'a@b.test',
            role: 'CLIENT_OWNER',
            organizationId: 'org_1',
            status: 'ACTIVE',
            updatedAt: '2024-01-01T00:00:00Z',
            echo: TOKEN,
          },
        }),
      )
    })
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    proxy = await startProxy({ upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, port: 0 })
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
    await proxy?.close()
    await new Promise((resolve) => upstream?.close(resolve))
  })

  test('shows each violation as it happens, as text, with a curl and no token', async () => {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()))
    const opened = await page.goto(`${proxy.url}/__proxy/`)
    expect(opened?.headers()['content-security-policy']).toContain("script-src 'self'")
    await page.getByText('Live: findings appear').waitFor()

    const answer = await fetch(`${proxy.url}/api/users/me`, { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(answer.status).toBe(200)
    const row = page.locator('#findings tr').first()
    await expect.poll(() => row.textContent()).toContain('[body-matches-schema]')
    const text = (await page.locator('body').textContent()) ?? ''
    expect(text).toContain('GET /api/users/me → 200')
    expect(text).toContain('/data/createdAt is required')
    await row.locator('summary', { hasText: 'report' }).click()
    expect(await row.textContent()).toContain('<img src=x onerror=') // shown as text…
    expect(await page.locator('#findings img').count()).toBe(0) // …never as markup
    expect(await page.title()).not.toBe('owned')
    await row.locator('summary', { hasText: 'curl' }).click()
    expect(await row.textContent()).toContain("curl -i -X GET -H 'authorization: Bearer ***'")
    expect(await page.content()).not.toContain(TOKEN)
    expect(await page.locator('#counts').textContent()).toContain('1 violation,')
    expect(errors).toEqual([])
  })
})
