import { describe, expect, test } from 'vitest'
import { findCommonCause, formatFailures, groupByRule } from '../../src/contract/report/summarize-failures.js'

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

describe('the failures of a run, when most have one cause', () => {
  const answered = (rule: string, response: string, path: string) => ({
    name: `x > ${path}`,
    message: `[scenario] ${rule}\n  Received: 404\n  Expected: 200\n\nRequest:  GET http://127.0.0.1:1${path}\nResponse: ${response}\nReproduce: curl -i -X GET http://127.0.0.1:1${path}`,
  })
  const notFound = Array.from({ length: 12 }, (_, index) => answered(`rule ${index}`, '404 text/html', `/api/${index}`))
  const other = answered('A viewer cannot rename another user: 403', '200 application/json', '/api/users/usr_1')

  test('it is said once, with the count and the first of them, and the other failures as ever', () => {
    const lines = formatFailures([...notFound, other], ['out/verify.xml'])
    expect(lines[0]).toBe(
      'One cause behind 12 of the 13 failed checks: each got 404 text/html where the users API would answer otherwise. Is the base URL the users API, and are its tokens right?',
    )
    // The example's curl, then the other failure's under its rule: its report is in the files.
    expect(lines.filter((line) => line.includes('Reproduce: curl')).length).toBe(2)
    expect(lines).toContain('  The reports of the other 11: in out/verify.xml.')
    expect(lines).toContain('The other failed check:')
    expect(lines).toContain('      in x > /api/users/usr_1')
    expect(lines).toContain('  Their reports: in out/verify.xml.')
  })

  test('answers of the API (2xx, or the error status expected), too few failures, or no majority are no common cause', () => {
    const expected401 = notFound.map((failure) => ({
      ...failure,
      message: failure.message
        .replace('Received: 404', 'Received: no WWW-Authenticate header')
        .replace('404 text/html', '401 application/problem+json'),
    }))
    expect(findCommonCause(expected401)).toBeUndefined()
    const ok = notFound.map((failure) => ({
      ...failure,
      message: failure.message.replace('404 text/html', '200 application/json'),
    }))
    expect(findCommonCause(ok)).toBeUndefined()
    expect(findCommonCause(notFound.slice(0, 9))).toBeUndefined()
    expect(findCommonCause([...notFound, ...ok])).toBeUndefined()
    expect(findCommonCause([...notFound, other])?.failures.length).toBe(12)
    expect(formatFailures(notFound)).toContain(
      '  The reports of the other 11: not printed: --out DIR (or --junit, --json, --html) writes them.',
    )
  })
})
