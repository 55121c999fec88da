import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { execa } from 'execa'
import type { Browser, Page } from 'playwright-core'
import type { JsonTestResults } from 'vitest/node'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { groupChecks } from '../../src/contract/report/report-checks.js'
import { createTarget, type MockTarget } from '../../src/mock-instance/create-target.js'
import { createMockApp, serverUrl } from '../../src/server/start-mock.js'
import { rewriteJson } from '../support/broken-servers/break-helpers.js'
import { MUTANTS } from '../support/broken-servers/mutants.js'
import { BROWSER_SKIP_REASON, launchChromium, SKIP_BROWSER } from '../support/chromium.js'
import { buildCliOnce, MAIN } from '../support/cli-mock-process.js'
import { tokensOf } from '../support/hostile-servers.js'

// `verify --html FILE`: one page that QA opens from a CI artifact, offline. It is built from the run's
// JSON results, so its totals are the JSON report's; what a broken server sent is shown, never run.

/** What the broken server adds to each 403's detail: markup that would run or show if not escaped. */
const HOSTILE = `<img src=x onerror="alert('img ran')"><script>alert('script ran')</script><b id="injected">bold</b>`

let directory: string
let target: MockTarget
let closeServer: () => Promise<unknown>
let json: JsonTestResults
let htmlPath: string
let page: string
let output: string
let exitCode: number

beforeAll(async () => {
  await buildCliOnce()
  directory = await mkdtemp(join(tmpdir(), 'html-report-'))
  // 403 for another organization's ids (CONTRACT §3 says 404): those checks fail, showing the 403's body.
  const { app, state, mock } = await createMockApp({ users: 8 })
  MUTANTS.find((mutant) => mutant.name === 'answers-403-for-other-organizations')?.apply({ app, state, mock })
  rewriteJson({ app, state, mock }, (body, _request, response) => {
    if (response.status === 403) body['detail'] = `${String(body['detail'])} ${HOSTILE}`
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  closeServer = () => app.close()
  // Without a bot: its checks are skipped, saying why, so all three statuses are on the page.
  target = createTarget(state.store, serverUrl(app), 6)
  delete target.actors.bot
  await writeFile(join(directory, 'target.json'), JSON.stringify(target))
  htmlPath = join(directory, 'reports', 'verify.html')
  const result = await execa(
    'node',
    [MAIN, 'verify', '--target', 'target.json', '--json', 'verify.json', '--html', 'reports/verify.html'],
    { cwd: directory, reject: false, all: true, env: { FORCE_COLOR: '0', NO_COLOR: '1' }, timeout: 60_000 },
  )
  output = result.all
  exitCode = result.exitCode ?? -1
  json = JSON.parse(await readFile(join(directory, 'verify.json'), 'utf8')) as JsonTestResults
  page = await readFile(htmlPath, 'utf8')
}, 60_000)

afterAll(async () => {
  await closeServer?.()
  await rm(directory, { recursive: true, force: true })
})

describe('verify --html FILE writes one self-contained page', () => {
  test('exit code 1 for the broken server, and the page is written where asked, its folder made', () => {
    expect(exitCode, output.slice(-2000)).toBe(1)
    expect(output).toContain(`HTML report written to ${htmlPath}`)
    expect(json.numFailedTests).toBeGreaterThan(0)
    expect(json.numPendingTests).toBeGreaterThan(0)
  })

  test('verify --help says what --html writes', async () => {
    const help = await execa('node', [MAIN, 'verify', '--help'], { reject: false })
    expect(help.stdout).toMatch(/--html FILE +Write one self-contained HTML page/)
  })

  test('nothing outside the file: no link, no source, a policy that allows only its own style and script', () => {
    // No element with a src or href (the server's `<img src=x` is text, escaped), no CSS import.
    expect(page).not.toMatch(/<[a-z][^>]*\s(?:src|href)=|<link\b|@import|url\(/i)
    expect(page).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;/)
  })

  test("the server's markup is escaped in the file, and no token is in it", () => {
    expect(page).not.toContain('<img')
    expect(page).not.toContain('<b id="injected">')
    expect(page.match(/<script>/g)).toHaveLength(1)
    expect(page).toContain('&lt;script&gt;alert(&#39;script ran&#39;)&lt;/script&gt;')
    for (const token of tokensOf(target).filter(Boolean)) expect(page, token).not.toContain(token)
  })
})

describe.skipIf(SKIP_BROWSER)(`the page in Chromium${BROWSER_SKIP_REASON}`, () => {
  let browser: Browser
  let tab: Page
  const dialogs: string[] = []
  const requests: string[] = []

  beforeAll(async () => {
    browser = await launchChromium()
    tab = await browser.newPage()
    tab.on('dialog', (dialog) => {
      dialogs.push(dialog.message())
      void dialog.dismiss()
    })
    tab.on('request', (request) => requests.push(request.url()))
    await tab.goto(pathToFileURL(htmlPath).href)
  })

  afterAll(async () => {
    await browser?.close()
  })

  test('its title says the verdict and the target; it loads nothing but itself', async () => {
    expect(await tab.title()).toBe(`users-api-kit verify: FAILED · ${target.baseUrl}`)
    expect(requests).toEqual([pathToFileURL(htmlPath).href])
  })

  test("the totals are the JSON report's, and add up to the checks on the page", async () => {
    const total = async (status: string) => Number(await tab.locator(`[data-total="${status}"]`).innerText())
    expect(await total('passed')).toBe(json.numPassedTests)
    expect(await total('failed')).toBe(json.numFailedTests)
    expect(await total('skipped')).toBe(json.numPendingTests)
    expect(await total('all')).toBe(json.numTotalTests)
    expect(await tab.locator('.check').count()).toBe(json.numTotalTests)
    expect(await tab.locator('#exit-status').innerText()).toBe('1: a check failed')
    expect(await tab.locator('#base-url').innerText()).toBe(target.baseUrl)
  })

  test('a failed check shows its exchange and its curl, the token masked as Bearer ***', async () => {
    const failed = tab.locator('.check[data-status="failed"]').first()
    expect(await failed.locator('pre').innerText()).toContain('Response: 403 application/problem+json')
    const curl = await failed.locator('.curl').innerText()
    expect(curl).toMatch(
      /^Reproduce: curl -i -X GET -H 'authorization: Bearer \*\*\*' http:\/\/127\.0\.0\.1:\d+\/api\/users\//,
    )
  })

  test('a skipped check says why', async () => {
    const reason = await tab.locator('.check[data-status="skipped"] .reason').first().innerText()
    expect(reason).toBe('Skipped: the target has no "bot" actor')
  })

  test('checks are grouped by the sections of docs/contract.md', async () => {
    const headings = await tab.locator('.group h2').allInnerTexts()
    expect(headings).toEqual(expect.arrayContaining([expect.stringMatching(/^§2 Authentication /)]))
    const failedIn = tab.locator('.group', { has: tab.locator('.check[data-status="failed"]') }).locator('h2')
    expect(await failedIn.allInnerTexts()).toEqual([expect.stringMatching(/^§3 Who may do what /)])
  })

  test('the filter "failed" hides every passed and skipped check; a text filter narrows further', async () => {
    await tab.locator('button[data-filter="failed"]').click()
    expect(await tab.locator('.check[data-status="passed"]:visible').count()).toBe(0)
    expect(await tab.locator('.check[data-status="skipped"]:visible').count()).toBe(0)
    expect(await tab.locator('.check:visible').count()).toBe(json.numFailedTests)
    await tab.locator('#text-filter').fill('the outsider gets a 404')
    expect(await tab.locator('.check:visible').count()).toBe(1)
    expect(await tab.locator('#shown').innerText()).toBe(`1 of ${json.numTotalTests} checks shown`)
    await tab.locator('#text-filter').fill('')
    await tab.locator('button[data-filter="all"]').click()
    expect(await tab.locator('.check:visible').count()).toBe(json.numTotalTests)
  })

  test("the server's <script> and <img onerror> are shown as text and never run", async () => {
    const failure = await tab.locator('.check[data-status="failed"] pre').first().innerText()
    expect(failure).toContain(`<script>alert('script ran')</script>`)
    expect(dialogs).toEqual([])
    expect(await tab.locator('img').count()).toBe(0)
    expect(await tab.locator('#injected').count()).toBe(0)
    expect(await tab.locator('script').count()).toBe(1)
  })
})

describe('grouping by section', () => {
  test("a check's own citation comes first, then its file's section, then its failure's; else its file", () => {
    const check = (title: string, status: 'passed' | 'failed', failureMessages: string[] = []) => ({
      ancestorTitles: ['a rule'],
      fullName: `a rule ${title}`,
      title,
      status,
      failureMessages,
    })
    const file = (name: string, assertionResults: ReturnType<typeof check>[]) => ({ name, assertionResults })
    const results = {
      testResults: [
        file('/kit/a.contract.test.ts', [
          check('[core] cites (docs/contract.md §5)', 'passed'),
          check('[core] cites nothing', 'failed', ['A rule (docs/contract.md §2)']),
        ]),
        file('/kit/b.contract.test.ts', [
          check('[core] cites nothing', 'failed', ['A rule (docs/contract.md §2)']),
          check('[core] nor does its file', 'passed'),
        ]),
      ],
    } as unknown as JsonTestResults
    const groups = groupChecks(results, {
      skipNotes: new Map(),
      sections: new Map([
        [2, 'Authentication'],
        [4, 'Endpoints'],
        [5, 'Errors'],
      ]),
      fileSections: new Map([['/kit/a.contract.test.ts', 4]]),
    })
    expect(groups.map((group) => [group.title, group.checks.map((one) => one.title)])).toEqual([
      ['§2 Authentication', ['[core] cites nothing']],
      ['§4 Endpoints', ['[core] cites nothing']],
      ['§5 Errors', ['[core] cites (docs/contract.md §5)']],
      ['b.contract.test.ts', ['[core] nor does its file']],
    ])
  })
})
