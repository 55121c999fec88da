import { escapeControlCharacters } from '../../text/escape-control-characters.js'

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

/**
 * The lines a failed run prints: the failed rules first, each with its count and its first exchange
 * (request, answer, curl), then every failed check with its whole report.
 */
export function formatFailures(failures: readonly FailedCheck[]): string[] {
  if (failures.length === 0) return []
  const rules = groupByRule(failures)
  const lines = [`Failed rules (${rules.length}), each with its first failure:`]
  for (const { rule, count, first } of rules) {
    lines.push(`  ✗ ${rule}: ${count} ${count === 1 ? 'check' : 'checks'}`, `      in ${first.name}`)
    lines.push(...indent(withoutFirstLine(first.message), 6))
  }
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
