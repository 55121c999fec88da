import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { MockState } from '../../src/domain/mock-state.js'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'
import { BROWSER_SKIP_REASON, launchChromium, SKIP_BROWSER } from '../support/chromium.js'

// What the mock serves to a browser besides the users API lists tokens or users: the reference (its
// Authorize text), the events page and stream. A page of another origin read /docs/json's tokens in
// Chromium, then every user through the API. Now none of it reaches another origin unless --cors names it.

/** The pages a page of another origin tries to read, each holding tokens or users. */
const OWN_PAGES = [
  '/docs',
  '/docs/json',
  '/docs/yaml',
  '/openapi.json',
  '/openapi.yaml',
  '/__mock/events',
  '/__mock/tokens',
  '/__mock/state',
]

let mock: RunningMock
let listing: RunningMock
let elsewhere: { server: Server; url: string; hits: string[] }
let browser: Browser
let page: Page

/** A site of another origin: an empty page, and whatever else is asked of it is counted. */
async function startElsewhere(): Promise<{ server: Server; url: string; hits: string[] }> {
  const hits: string[] = []
  const server = createServer((incoming, outgoing) => {
    hits.push(incoming.url ?? '')
    outgoing.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>elsewhere</title>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits }
}

/** What a script of the page reads of `url`: its text, or `blocked` when the browser keeps it out. */
function readFrom(url: string): Promise<string> {
  return page.evaluate(async (target) => {
    try {
      return await (await fetch(target)).text()
    } catch {
      return 'blocked'
    }
  }, url)
}

describe.skipIf(SKIP_BROWSER)(
  `a page of another origin, in Chromium${BROWSER_SKIP_REASON}`,
  { timeout: 60_000 },
  () => {
    beforeAll(async () => {
      elsewhere = await startElsewhere()
      mock = await startMock({ users: 2 })
      listing = await startMock({ users: 2, cors: [elsewhere.url] })
      browser = await launchChromium()
      page = await browser.newPage()
      await page.goto(elsewhere.url)
    })

    afterAll(async () => {
      await browser?.close()
      await mock?.close()
      await listing?.close()
      elsewhere?.server.close()
    })

    test.each(OWN_PAGES)('cannot read %s of a mock on 127.0.0.1', async (path) => {
      expect(await readFrom(`${mock.url}${path}`)).toBe('blocked')
    })

    test('gets nothing from the live event stream', async () => {
      await fetch(`${mock.url}/api/users/${mock.target.disposable[0]?.id}`, {
        method: 'PATCH',
        headers: { authorization: 'Bearer owner-token', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Seen Elsewhere' }),
      })
      const received = await page.evaluate(
        (url) =>
          new Promise<string>((resolve) => {
            const stream = new EventSource(url)
            let text = ''
            stream.addEventListener('event', (message) => (text += (message as unknown as { data: string }).data))
            stream.onerror = () => {
              stream.close()
              resolve(text === '' ? 'error' : text)
            }
            setTimeout(() => (stream.close(), resolve(text === '' ? 'nothing' : text)), 2_000)
          }),
        `${mock.url}/__mock/events`,
      )
      expect(received).not.toContain('Seen Elsewhere')
    })

    test('reads the reference and the tokens of a mock whose --cors names its origin', async () => {
      expect(await readFrom(`${listing.url}/docs/json`)).toContain('owner-token')
      expect(await readFrom(`${listing.url}/__mock/tokens`)).toContain('owner-token')
    })

    test('the users API still answers it, as the README says (its fixture tokens are public)', async () => {
      const text = await page.evaluate(async (url) => {
        const response = await fetch(url, { headers: { authorization: 'Bearer owner-token' } })
        return response.text()
      }, `${mock.url}/api/users/me`)
      expect(text).toContain('Olivia Owner')
    })

    test("its script reads the headers the mock exposes: a 401's WWW-Authenticate, a 405's Allow", async () => {
      const seen = await page.evaluate(async (url) => {
        const refused = await fetch(url)
        const notAllowed = await fetch(url, { method: 'DELETE', headers: { authorization: 'Bearer owner-token' } })
        return {
          refused: [refused.status, refused.headers.get('www-authenticate')],
          notAllowed: [notAllowed.status, notAllowed.headers.get('allow')],
        }
      }, `${mock.url}/api/users/me`)
      expect(seen).toEqual({
        refused: [401, expect.stringContaining('Bearer')],
        notAllowed: [405, expect.stringContaining('GET')],
      })
    })
  },
)

describe.skipIf(SKIP_BROWSER)(
  `a token planted in the state, on /docs${BROWSER_SKIP_REASON}`,
  { timeout: 60_000 },
  () => {
    let planted: RunningMock
    let site: Awaited<ReturnType<typeof startElsewhere>>
    let docs: Browser

    beforeAll(async () => {
      site = await startElsewhere()
      planted = await startMock({ users: 0 })
      const state = (await (await fetch(`${planted.url}/__mock/state`)).json()) as MockState
      const owner = state.users.find((user) => user.token === 'owner-token')
      if (owner) owner.token = `x\` <img src="${site.url}/pixel"> \``
      await fetch(`${planted.url}/__mock/state`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(state),
      })
      docs = await launchChromium()
    })

    afterAll(async () => {
      await docs?.close()
      await planted?.close()
      site?.server.close()
    })

    test('writes no HTML into the Authorize dialog: no <img>, no request to its address', async () => {
      const reference = await docs.newPage()
      await reference.goto(`${planted.url}/docs`)
      await reference.locator('button.authorize').first().click()
      const dialog = reference.locator('.auth-container').first()
      await dialog.waitFor()
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(await dialog.locator('img').count()).toBe(0)
      expect(site.hits).not.toContain('/pixel')
      expect(await dialog.innerText()).toContain('admin-token')
    })
  },
)

describe('a DNS name rebound to 127.0.0.1', () => {
  let local: RunningMock

  beforeAll(async () => {
    local = await startMock({ users: 2 })
  })

  afterAll(() => local.close())

  test.each(['/docs/json', '/docs/yaml', '/openapi.json'])('cannot read %s (Host: evil.example)', async (path) => {
    const status = await new Promise<number>((resolve, reject) => {
      const outgoing = request(`${local.url}${path}`, { headers: { host: 'evil.example' } }, (response) => {
        response.resume()
        resolve(response.statusCode ?? 0)
      })
      outgoing.on('error', reject)
      outgoing.end()
    })
    expect(status).toBe(403)
  })
})
