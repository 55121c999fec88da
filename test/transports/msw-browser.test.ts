import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { build } from 'esbuild'
import type { Browser, Page } from 'playwright-core'
import { BROWSER_SKIP_REASON, launchChromium, SKIP_BROWSER } from '../support/chromium.js'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import type { MswPage, PageExchange, PageRequest } from '../support/msw-page.js'
import type { Problem, UserEnvelope, UserList } from '../support/api-exchange.js'
import { namedUser } from '../support/named-users.js'

// The kit's MSW handlers in a real browser: Debian's Chromium driven by playwright-core, msw's Service
// Worker answering the page's fetches, and no API server anywhere. A static server hands out the page,
// its bundle and mockServiceWorker.js; it answers 404 to anything else, /api included.

// Skipped where Chromium is missing, visibly; in CI (which installs it) a missing Chromium fails.

const OWNER = namedUser('owner-token')
const ADMIN = namedUser('admin-token')
const BOT = namedUser('bot-token')

const WORKER_SCRIPT = new URL('../../node_modules/msw/lib/mockServiceWorker.js', import.meta.url)
const PAGE_SCRIPT = new URL('../support/msw-page.ts', import.meta.url)

const HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>users-api-kit MSW</title></head>
<body><script type="module" src="/msw-page.js"></script></body></html>`

let browser: Browser | undefined
let page: Page
let server: Server | undefined
let pageOrigin: string
/** An origin nothing listens on: the API the page calls. */
let apiOrigin: string
/** Every path the static server was asked for. */
const served: string[] = []
const pageErrors: string[] = []

/** The page script and its chunks, bundled in memory: file name → contents. */
async function bundlePage(): Promise<Map<string, Uint8Array>> {
  const result = await build({
    entryPoints: [PAGE_SCRIPT.pathname],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    splitting: true,
    write: false,
    outdir: join(tmpdir(), 'users-api-kit-msw-page'),
    logLevel: 'silent',
  })
  return new Map(result.outputFiles.map((file) => [basename(file.path), file.contents]))
}

async function startStaticServer(files: Map<string, Uint8Array>): Promise<Server> {
  const workerScript = await readFile(WORKER_SCRIPT)
  const staticServer = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://static').pathname
    served.push(path)
    const script = path === '/mockServiceWorker.js' ? workerScript : files.get(path.slice(1))
    if (path === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HTML)
    } else if (script !== undefined) {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script)
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
    }
  })
  await new Promise<void>((resolve) => staticServer.listen(0, '127.0.0.1', resolve))
  return staticServer
}

/** A port that was free a moment ago and that nothing listens on now. */
async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

/** Sends a request from the page: its fetch, which msw's worker may answer. */
function call(request: PageRequest): Promise<PageExchange> {
  return page.evaluate((sent) => (globalThis as unknown as MswPage).callApi(sent), request)
}

/** A response the page got (not a network error), for the assertions. */
function answered(exchange: PageExchange): Exclude<PageExchange, { error: string }> {
  if ('error' in exchange) throw new Error(`The page's fetch failed: ${exchange.error}`)
  return exchange
}

describe.skipIf(SKIP_BROWSER)(
  `MSW's Service Worker in Chromium answers the page, no API server running${BROWSER_SKIP_REASON}`,
  { timeout: 60_000 },
  () => {
    beforeAll(async () => {
      const [files, port] = await Promise.all([bundlePage(), closedPort()])
      apiOrigin = `http://127.0.0.1:${port}`
      server = await startStaticServer(files)
      pageOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      browser = await launchChromium()
      page = await browser.newPage()
      page.on('pageerror', (error) => pageErrors.push(String(error)))
      await page.goto(`${pageOrigin}/`)
      await page.evaluate(() => (globalThis as unknown as MswPage).mswReady)
    }, 60_000)

    afterEach(async () => {
      await page.evaluate(() => (globalThis as unknown as MswPage).resetMock())
    })

    afterAll(async () => {
      await browser?.close()
      server?.closeAllConnections()
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
    })

    test('nothing listens on the API origin: a path the worker passes through fails in the page', async () => {
      const exchange = await call({ url: `${apiOrigin}/health` })
      expect(exchange).toEqual({ error: expect.stringMatching(/TypeError/) })
    })

    test("the owner lists its organization's users: 200, meta.total", async () => {
      const exchange = answered(await call({ url: `${apiOrigin}/api/users?limit=3`, token: 'owner-token' }))
      expect(exchange.status).toBe(200)
      expect(exchange.contentType).toMatch(/^application\/json/)
      const list = exchange.body as UserList
      expect(list.data).toHaveLength(3)
      expect(list.meta.total).toBeGreaterThan(3)
      expect(list.data.map((user) => user.organizationId)).toEqual(Array(3).fill(OWNER.organizationId))
    })

    test('a rename is 200, a later GET shows the new name, and mock.reset() brings the old one back', async () => {
      const renamed = answered(
        await call({
          url: `${apiOrigin}/api/users/${ADMIN.id}`,
          method: 'PATCH',
          token: 'owner-token',
          json: { name: 'Ada Browser' },
        }),
      )
      expect(renamed.status).toBe(200)
      expect((renamed.body as UserEnvelope).data.name).toBe('Ada Browser')

      const read = answered(await call({ url: `${apiOrigin}/api/users/${ADMIN.id}`, token: 'owner-token' }))
      expect((read.body as UserEnvelope).data.name).toBe('Ada Browser')

      await page.evaluate(() => (globalThis as unknown as MswPage).resetMock())
      const afterReset = answered(await call({ url: `${apiOrigin}/api/users/${ADMIN.id}`, token: 'owner-token' }))
      expect((afterReset.body as UserEnvelope).data.name).toBe(ADMIN.name)
    })

    test('a delete is 204, then the user is 404 USER_NOT_FOUND', async () => {
      const deleted = answered(
        await call({ url: `${apiOrigin}/api/users/${BOT.id}`, method: 'DELETE', token: 'owner-token' }),
      )
      expect(deleted.status).toBe(204)
      expect(deleted.text).toBe('')

      const read = answered(await call({ url: `${apiOrigin}/api/users/${BOT.id}`, token: 'owner-token' }))
      expect(read.status).toBe(404)
      expect((read.body as Problem).code).toBe('USER_NOT_FOUND')
    })

    test('no token: 401 UNAUTHENTICATED as problem+json, with WWW-Authenticate: Bearer', async () => {
      const exchange = answered(await call({ url: `${apiOrigin}/api/users/me` }))
      expect(exchange.status).toBe(401)
      expect(exchange.contentType).toMatch(/^application\/problem\+json/)
      expect(exchange.wwwAuthenticate).toBe('Bearer')
      expect(exchange.body).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' })
    })

    test('a viewer renaming another user: 403 FORBIDDEN problem', async () => {
      const exchange = answered(
        await call({
          url: `${apiOrigin}/api/users/${ADMIN.id}`,
          method: 'PATCH',
          token: 'viewer-token',
          json: { name: 'Nope' },
        }),
      )
      expect(exchange.status).toBe(403)
      expect(exchange.contentType).toMatch(/^application\/problem\+json/)
      expect(exchange.body).toMatchObject({ status: 403, code: 'FORBIDDEN' })
    })

    test('a bad query (?limit=0): 400 VALIDATION_FAILED problem naming /limit', async () => {
      const exchange = answered(await call({ url: `${apiOrigin}/api/users?limit=0`, token: 'owner-token' }))
      expect(exchange.status).toBe(400)
      expect(exchange.contentType).toMatch(/^application\/problem\+json/)
      const problem = exchange.body as Problem
      expect(problem.code).toBe('VALIDATION_FAILED')
      expect(problem.errors).toContainEqual(expect.objectContaining({ in: 'query', path: '/limit' }))
    })

    test("/api/users/me on the page's own origin: the worker answers 200 where the static server says 404", async () => {
      const direct = await fetch(`${pageOrigin}/api/users/me`, { headers: { authorization: 'Bearer owner-token' } })
      expect(direct.status).toBe(404)

      const exchange = answered(await call({ url: '/api/users/me', token: 'owner-token' }))
      expect(exchange.status).toBe(200)
      expect((exchange.body as UserEnvelope).data.id).toBe(OWNER.id)
    })

    test('no request of the page reached the static server under /api, and the page threw nothing', () => {
      // The one /api request it saw is the test's own direct fetch above.
      expect(served.filter((path) => path.startsWith('/api'))).toEqual(['/api/users/me'])
      expect(served).toContain('/mockServiceWorker.js')
      expect(pageErrors).toEqual([])
    })
  },
)
