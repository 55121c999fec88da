import { escapeControlCharacters } from '../../text/escape-control-characters.js'
import { UNUSABLE_ANSWER_CHECKS } from '../client/unusable-answer.js'

/** A failed check as the run reports it: its full name and what it said. */
export interface FailedCheck {
  name: string
  /** The first error's message: a ContractViolation's bug report, whose first line is `[check] rule`. */
  message: string
}

/** The failed rules, each once, with how many checks broke it and the first of them. */
export interface FailedRule {
  /** `[www-authenticate-on-401] A 401 carries WWW-Authenticate: Bearer, …` */
  rule: string
  count: number
  first: FailedCheck
}

/**
 * Groups failed checks by the rule their report names first (a check's own rule comes before what the
 * response-level checks found on the same answer: contract-tests/support/suite.ts), in order of count.
 *
 * @example
 * groupByRule([{ name: 'a > b', message: '[scenario] A viewer cannot rename…\n  Received: 200' }])
 */
export function groupByRule(failures: readonly FailedCheck[]): FailedRule[] {
  const rules = new Map<string, FailedRule>()
  for (const failure of failures) {
    const rule = ruleOf(failure.message)
    const entry = rules.get(rule)
    if (entry) entry.count += 1
    else rules.set(rule, { rule, count: 1, first: failure })
  }
  return [...rules.values()].sort((a, b) => b.count - a.count)
}

/** The checks an answer no check can read fails (an HTML page, a redirect, an endless body). */
const UNUSABLE = UNUSABLE_ANSWER_CHECKS.map((check) => check.name)

/** Most failures, for one cause: at least this many, and more than half of them. */
const ONE_CAUSE_AT_LEAST = 10

/** Failed checks that got the same kind of answer where they expected another: one cause behind them. */
export interface CommonCause {
  /** What each got: `404 text/html`, or `no answer at all` (refused, reset, timed out, not sent after timeouts). */
  cause: string
  failures: FailedCheck[]
}

/**
 * The cause behind most failures, when there is one: the same answer that is no answer of the users API
 * (none at all, an unusable one, or an error status where another was expected: an HTML page, 404 on every
 * route, 401 to every token)
 * behind at least ONE_CAUSE_AT_LEAST failed checks and more than half of them. A 2xx is no such cause:
 * checks that fail on answers of the API break their own rules (grouped by rule, as ever).
 *
 * @example
 * findCommonCause(failures)?.cause // '404 text/html'
 */
export function findCommonCause(failures: readonly FailedCheck[]): CommonCause | undefined {
  const causes = new Map<string, FailedCheck[]>()
  for (const failure of failures) {
    const cause = causeOf(failure.message)
    if (cause !== undefined) causes.set(cause, [...(causes.get(cause) ?? []), failure])
  }
  const [largest] = [...causes].sort((a, b) => b[1].length - a[1].length)
  if (!largest || largest[1].length < ONE_CAUSE_AT_LEAST || largest[1].length * 2 <= failures.length) return undefined
  return { cause: largest[0], failures: largest[1] }
}

/** The answer a failure's report names (contract-violation.ts), when it is no answer of the API. */
function causeOf(message: string): string | undefined {
  const response = /^Response: (.*)$/m.exec(message)?.[1]
  if (response === undefined) return undefined
  // Whatever the transport said (a timeout, then "not sent" once the client stopped sending): one cause.
  if (response === 'none') return 'no answer at all'
  const status = /^\d+/.exec(response)?.[0]
  const unusable = UNUSABLE.some((name) => message.includes(`[${name}] `))
  // An error status where the check expected another (`Received: 404`): a 401 that lacks a header is a
  // rule broken, not a cause.
  const unexpected = Number(status) >= 400 && new RegExp(`^ +Received: ${status}$`, 'm').test(message)
  return unusable || unexpected ? response : undefined
}

/**
 * The lines a failed run prints: the failed rules first, each with its count and its first exchange
 * (request, answer, curl), then every failed check with its whole report. When most failures have one
 * cause (findCommonCause), it is said once, with how many checks it failed and the first of them; their
 * reports are left to the files (`reportFiles`, or how to have them).
 */
export function formatFailures(failures: readonly FailedCheck[], reportFiles: readonly string[] = []): string[] {
  if (failures.length === 0) return []
  const common = findCommonCause(failures)
  if (common) return formatCommonCause(common, failures, reportFiles)
  return formatByRule(failures)
}

function formatCommonCause(common: CommonCause, all: readonly FailedCheck[], reportFiles: readonly string[]): string[] {
  const [first] = common.failures as [FailedCheck]
  const where =
    reportFiles.length > 0
      ? `in ${reportFiles.join(', ')}`
      : 'not printed: --out DIR (or --junit, --json, --html) writes them'
  const lines = [
    `One cause behind ${common.failures.length} of the ${all.length} failed checks: each got ${common.cause} where the users API would answer otherwise. Is the base URL the users API, and are its tokens right?`,
    `  For example, ✗ ${first.name}`,
    ...indent(first.message, 6),
    `  The reports of the other ${common.failures.length - 1}: ${where}.`,
  ]
  const others = all.filter((failure) => !common.failures.includes(failure))
  const heading = others.length === 1 ? 'The other failed check:' : `The other ${others.length} failed checks:`
  // Their rules, each with its first failure; their reports are with the others', in the files.
  if (others.length > 0) lines.push('', heading, ...formatByRule(others, false), `  Their reports: ${where}.`)
  return lines.map((line) => escapeControlCharacters(line))
}

function formatByRule(failures: readonly FailedCheck[], reports = true): string[] {
  const rules = groupByRule(failures)
  const lines = [`Failed rules (${rules.length}), each with its first failure:`]
  for (const { rule, count, first } of rules) {
    lines.push(`  ✗ ${rule}: ${count} ${count === 1 ? 'check' : 'checks'}`, `      in ${first.name}`)
    lines.push(...indent(withoutFirstLine(first.message), 6))
  }
  if (!reports) return lines.map((line) => escapeControlCharacters(line))
  lines.push('', `Failed checks (${failures.length}), each with its report:`)
  for (const failure of failures) lines.push(`  ✗ ${failure.name}`, ...indent(failure.message, 6), '')
  return lines.map((line) => escapeControlCharacters(line))
}

/** The first line of a report, which names the rule; a message without one is its own rule. */
function ruleOf(message: string): string {
  return (message.split('\n')[0] ?? '').trim() || '(no message)'
}

function withoutFirstLine(message: string): string {
  return message.split('\n').slice(1).join('\n').replace(/^\n+/, '')
}

function indent(text: string, spaces: number): string[] {
  return text.split('\n').map((line) => (line === '' ? '' : `${' '.repeat(spaces)}${line}`))
}
