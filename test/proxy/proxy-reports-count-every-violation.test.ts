import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { RESPONSE_CHECKS } from '../../src/contract/checks/index.js'
import type { Exchange } from '../../src/contract/client/exchange.js'
import {
  findUnusableAnswer,
  SERVER_ANSWERS,
  UNUSABLE_ANSWER_CHECKS,
} from '../../src/contract/client/unusable-answer.js'
import type { FindingEntry } from '../../src/proxy/finding-entry.js'
import { FindingLog } from '../../src/proxy/finding-log.js'
import { PROXY_RULES } from '../../src/proxy/rules/index.js'
import { writeProxyReports } from '../../src/proxy/write-proxy-reports.js'

// Every check a proxy finding can name (an answer that never came, an unusable one, verify's response
// checks, the proxy's rules) is a failed test case of the JUnit report when it found a violation: a
// report that said failures="0" over a redirect let a CI gate pass a broken backend.

const directory = await mkdtemp(join(tmpdir(), 'users-api-kit-proxy-reports-'))
afterAll(() => rm(directory, { recursive: true, force: true }))

const names = [
  SERVER_ANSWERS.name,
  ...UNUSABLE_ANSWER_CHECKS.map((check) => check.name),
  ...RESPONSE_CHECKS.map((check) => check.name),
  ...PROXY_RULES.map((rule) => rule.name),
]

function violation(check: string): FindingEntry {
  return {
    id: 1,
    at: '2026-01-01T00:00:00.000Z',
    kind: 'violation',
    check,
    rule: 'a rule',
    sentences: [],
    message: 'Received: something else',
    method: 'GET',
    target: '/api/users/me',
    status: 302,
    report: `the report of ${check}`,
    curl: '',
  }
}

test.each(names)('a violation of %s fails the JUnit report, with its report', async (check) => {
  const log = new FindingLog()
  log.recordExchange(true)
  log.add(violation(check))
  const run = { upstream: 'http://127.0.0.1:1', startedAt: new Date(0), endedAt: new Date(1000), log }
  const [junit] = await writeProxyReports(join(directory, check), { junit: 'r.xml', json: 'r.json' }, run)
  const xml = await readFile(junit as string, 'utf8')
  expect(xml).toMatch(/<testsuites name="users-api-kit proxy" tests="\d+" failures="1"/)
  expect(xml).toContain(`the report of ${check}`)
})

test('every check an unusable answer fails is in the list the report is made from', () => {
  const answer = (response: Exchange['response']): Exchange => ({
    request: { method: 'GET', url: 'http://127.0.0.1:1/api/users/me', headers: {} },
    response,
  })
  const unusable = [
    answer({ status: 302, headers: { location: '/login' }, text: '' }),
    answer({ status: 200, headers: { 'content-type': 'text/html' }, text: '<!doctype html><title>Down</title>' }),
    ...(['size', 'depth', 'values'] as const).map((limit) =>
      answer({
        status: 200,
        headers: { 'content-type': 'application/json' },
        text: '',
        refused: { limit, reason: limit },
      }),
    ),
  ]
  const listed = UNUSABLE_ANSWER_CHECKS.map((check) => check.name)
  for (const exchange of unusable) {
    const finding = findUnusableAnswer(exchange)
    expect(finding, JSON.stringify(exchange.response)).toBeDefined()
    expect(listed).toContain(finding?.check)
  }
})
