import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { RESPONSE_CHECKS } from '../contract/checks/index.js'
import { SERVER_ANSWERS, UNUSABLE_ANSWER_CHECKS } from '../contract/client/unusable-answer.js'
import { escapeControlCharacters } from '../text/escape-control-characters.js'
import { escapeHtml } from '../contract/report/safe-html.js'
import { writeFileAtomically } from '../files/write-file-atomically.js'
import type { FindingEntry } from './finding-entry.js'
import type { FindingLog } from './finding-log.js'
import { PROXY_RULES } from './rules/index.js'

/** What the reports say of the run besides its findings. */
export interface ProxyRun {
  upstream: string
  startedAt: Date
  endedAt: Date
  log: FindingLog
}

/** The names of the two reports in --report DIR. */
export interface ProxyReportNames {
  junit: string
  json: string
}

/**
 * Every check the proxy runs, in the order reports list them: the answer is usable, verify's response
 * checks, then the proxy's rules.
 */
const CHECKS: ReadonlyArray<{ name: string; rule: string; group: string }> = [
  { ...SERVER_ANSWERS, group: 'answers' },
  ...UNUSABLE_ANSWER_CHECKS.map(({ name, rule }) => ({ name, rule, group: 'answers' })),
  ...RESPONSE_CHECKS.map(({ name, rule }) => ({ name, rule, group: 'response checks (verify)' })),
  ...PROXY_RULES.map(({ name, rule }) => ({ name, rule, group: 'rules of the contract (proxy)' })),
]

/**
 * Writes the run's JUnit (one test case a check: failed when it found violations, with the first one's
 * report) and JSON (the counts and the last findings) into `directory`, made if missing. Neither holds a
 * token: findings are masked when they are made (finding-entry.ts).
 *
 * @returns the paths written.
 */
export async function writeProxyReports(directory: string, names: ProxyReportNames, run: ProxyRun): Promise<string[]> {
  await mkdir(directory, { recursive: true })
  const junit = join(directory, names.junit)
  const json = join(directory, names.json)
  await writeFileAtomically(junit, renderJunit(run))
  await writeFileAtomically(json, `${JSON.stringify(renderJson(run), null, 2)}\n`)
  return [junit, json]
}

function renderJson({ upstream, startedAt, endedAt, log }: ProxyRun): unknown {
  return {
    upstream,
    startedAt: startedAt.toISOString(),
    endedAt: endedAt.toISOString(),
    counts: log.counts,
    findings: log.recent(),
  }
}

function renderJunit({ upstream, startedAt, endedAt, log }: ProxyRun): string {
  const { counts } = log
  const recent = log.recent()
  const seconds = ((endedAt.getTime() - startedAt.getTime()) / 1000).toFixed(3)
  const cases = CHECKS.map(({ name, rule, group }) => {
    const count = counts.checks[name]?.count ?? 0
    const title = attribute(`[${name}] ${rule}`)
    if (count === 0) return `    <testcase classname="${attribute(group)}" name="${title}" time="0"/>`
    const first = recent.find((entry) => entry.check === name)
    return [
      `    <testcase classname="${attribute(group)}" name="${title}" time="0">`,
      `      <failure type="violation" message="${attribute(`${count} ${count === 1 ? 'answer' : 'answers'} broke it`)}">${text(describeFirst(first))}</failure>`,
      '    </testcase>',
    ].join('\n')
  })
  if (counts.unchecked > 0)
    cases.push(
      `    <testcase classname="answers" name="[not-checked] Answers the proxy could not read within its limits" time="0">\n      <skipped message="${attribute(`${counts.unchecked} answers forwarded whole, not checked`)}"/>\n    </testcase>`,
    )
  const failures = CHECKS.filter(({ name }) => (counts.checks[name]?.count ?? 0) > 0).length
  const skipped = counts.unchecked > 0 ? 1 : 0
  const totals = `tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds}"`
  const properties = {
    upstream,
    exchanges: counts.exchanges,
    checked: counts.judged,
    violations: counts.violations,
    'client mistakes': counts.client,
    'not checked': counts.unchecked,
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="users-api-kit proxy" ${totals}>`,
    `  <testsuite name="users-api-kit proxy" ${totals} timestamp="${startedAt.toISOString()}">`,
    '    <properties>',
    ...Object.entries(properties).map(
      ([name, value]) => `      <property name="${attribute(name)}" value="${attribute(String(value))}"/>`,
    ),
    '    </properties>',
    ...cases,
    `    <system-out>${text(`The clients' own mistakes (requests the contract refuses, answered as it says): ${counts.client}.`)}</system-out>`,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n')
}

function describeFirst(entry: FindingEntry | undefined): string {
  if (!entry) return 'The first of them is older than the findings the proxy keeps.'
  return `${entry.at}${entry.sentences.length > 0 ? ` (docs/contract.md ${entry.sentences.join(', ')})` : ''}\n${entry.report}`
}

/** XML 1.0 allows no control characters but tab and new line, even escaped: they are written out. */
function text(value: string): string {
  return escapeHtml(escapeControlCharacters(value, { multiline: true }))
}

function attribute(value: string): string {
  return escapeHtml(escapeControlCharacters(value))
}
