const COUNTS = ['tests', 'failures', 'errors', 'skipped'] as const

export interface JunitTotals {
  tests: number
  failures: number
  errors: number
  skipped: number
  time: number
}

/**
 * One `<testsuites>` document holding every `<testsuite>` of the given JUnit reports (vitest's and
 * Schemathesis's), with the totals added up. Both writers escape their text, so a `<testsuite>` tag
 * never occurs inside one.
 *
 * @example
 * mergeJunitReports('users-api-kit gate', [verifyXml, fuzzXml]) // '<?xml …?>\n<testsuites name="users-api-kit gate" tests="…">…'
 */
export function mergeJunitReports(name: string, reports: string[]): string {
  const suites = reports.flatMap(listTestsuites)
  const totals = sumTotals(suites)
  const attributes = [
    `name="${escapeAttribute(name)}"`,
    ...COUNTS.map((count) => `${count}="${totals[count]}"`),
    `time="${totals.time.toFixed(3)}"`,
  ]
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ${attributes.join(' ')}>\n${suites.join('\n')}\n</testsuites>\n`
}

/** The totals of a report's suites (vitest's root carries no `skipped`, so they are added up from the suites). */
export function readJunitTotals(report: string): JunitTotals {
  return sumTotals(listTestsuites(report))
}

/**
 * Every `<testsuite>` of a report renamed, for a combined report that says where each came from.
 *
 * @example
 * renameTestsuites(schemathesisXml, () => 'users-api-kit fuzz') // Schemathesis calls its suite "schemathesis"
 */
export function renameTestsuites(report: string, rename: (name: string) => string): string {
  return report.replace(
    /<testsuite\b([^>]*?)\bname="([^"]*)"/g,
    (_tag, before: string, name: string) =>
      `<testsuite${before}name="${escapeAttribute(rename(decodeAttribute(name)))}"`,
  )
}

function listTestsuites(report: string): string[] {
  return [...report.matchAll(/<testsuite\b[^>]*?(?:\/>|>[\s\S]*?<\/testsuite>)/g)].map((match) => match[0])
}

function sumTotals(suites: string[]): JunitTotals {
  const totals: JunitTotals = { tests: 0, failures: 0, errors: 0, skipped: 0, time: 0 }
  for (const suite of suites) {
    const tag = /^<testsuite\b[^>]*>/.exec(suite)?.[0] ?? ''
    for (const count of COUNTS) totals[count] += Number(readAttribute(tag, count)) || 0
    totals.time += Number(readAttribute(tag, 'time')) || 0
  }
  return totals
}

function readAttribute(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1]
}

function decodeAttribute(value: string): string {
  return value.replace(/&(lt|gt|quot|apos|amp);/g, (_entity, name: string) => XML_ENTITIES[name] ?? '')
}

const XML_ENTITIES: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' }

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')
}
