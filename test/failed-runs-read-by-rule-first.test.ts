import { describe, expect, test } from 'vitest'
import { formatFailures, groupByRule } from '../src/contract/report/summarize-failures.js'

// A failed verify run prints its failed rules first, each once with its count and first failure, then
// every report (issue 18: a backend that breaks one rule everywhere printed 2,959 lines of reports).

const report = (rule: string, path: string): string =>
  `${rule}\n  Received: 200\n  Expected: 401\n\nRequest:  GET http://127.0.0.1:1${path}\nReproduce: curl -i -X GET http://127.0.0.1:1${path}`

const FAILURES = [
  { name: 'a > first', message: report('[scenario] A 401 carries WWW-Authenticate: Bearer', '/api/users/me') },
  { name: 'a > second', message: report('[body-matches-schema] Every body matches its schema', '/api/users') },
  { name: 'b > third', message: report('[scenario] A 401 carries WWW-Authenticate: Bearer', '/api/nothing') },
]

describe('the failures of a run, by rule', () => {
  test('each rule once, the most broken first, with its count and its first failure', () => {
    expect(groupByRule(FAILURES).map(({ rule, count, first }) => [rule, count, first.name])).toEqual([
      ['[scenario] A 401 carries WWW-Authenticate: Bearer', 2, 'a > first'],
      ['[body-matches-schema] Every body matches its schema', 1, 'a > second'],
    ])
  })

  test('the rules with their first exchange and curl come before every report', () => {
    const lines = formatFailures(FAILURES)
    const details = lines.indexOf('Failed checks (3), each with its report:')
    expect(lines[0]).toBe('Failed rules (2), each with its first failure:')
    expect(lines.slice(0, details)).toContain('  ✗ [scenario] A 401 carries WWW-Authenticate: Bearer: 2 checks')
    expect(lines.slice(0, details)).toContain('      Reproduce: curl -i -X GET http://127.0.0.1:1/api/users/me')
    expect(lines.slice(0, details).join('\n')).not.toContain('/api/nothing')
    expect(lines.slice(details).filter((line) => line.startsWith('  ✗ '))).toEqual([
      '  ✗ a > first',
      '  ✗ a > second',
      '  ✗ b > third',
    ])
  })

  test('a run without failures prints nothing more, and server text stays escaped', () => {
    expect(formatFailures([])).toEqual([])
    const hostile = [{ name: 'x', message: '[scenario] rule\n  Received: \u001b]0;owned\u0007' }]
    expect(formatFailures(hostile).join('\n')).not.toContain('\u001b')
  })
})
