import { REPORT_CSP, REPORT_SCRIPT, REPORT_STYLE } from './html-report-assets.js'
import { countChecks, type CheckStatus, type ReportedCheck, type ReportGroup } from './report-checks.js'
import { renderHtml, SafeHtml } from './safe-html.js'

/** What the HTML report of one run of `verify` shows. */
export interface HtmlReport {
  /** The target's base URL. */
  baseUrl: string
  /** When the run started. */
  date: Date
  /** verify's exit code: 0, 1 or 2. */
  exitCode: number
  groups: ReportGroup[]
  /** Said under the summary: a broken target, the reasons checks were skipped. */
  notes: string[]
}

const VERDICTS = ['PASSED', 'FAILED', 'COULD NOT RUN'] as const
const EXIT_MEANINGS = ['every check passed', 'a check failed', 'no check ran, so nothing was verified']
const STATUS_MARKS: Record<CheckStatus, string> = { passed: '✓ passed', failed: '✗ failed', skipped: '– skipped' }
const FILTERS = ['all', 'failed', 'skipped', 'passed'] as const

/**
 * One self-contained HTML page for people (QA, a backend's developers): the summary, then every check
 * grouped by the contract's sections, failures with their exchange and curl, and filters. Every string
 * of the run goes through `renderHtml`, so what a server sent is shown as text and never becomes markup.
 *
 * @example
 * await writeFile('verify.html', renderHtmlReport({ baseUrl, date: new Date(), exitCode: 1, groups, notes: [] }))
 */
export function renderHtmlReport(report: HtmlReport): string {
  const counts = countChecks(report.groups.flatMap((group) => group.checks))
  const verdict = VERDICTS[report.exitCode] ?? 'COULD NOT RUN'
  // <style> and <script> hold exactly the hashed text: the policy allows nothing else.
  return renderHtml`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>users-api-kit verify: ${verdict} · ${report.baseUrl}</title>
<style>${new SafeHtml(REPORT_STYLE)}</style>
</head>
<body>
<header>
<h1>users-api-kit verify: <span class="verdict-${verdict.toLowerCase().replaceAll(' ', '-')}">${verdict}</span></h1>
<dl class="summary">
<dt>Target</dt><dd id="base-url">${report.baseUrl}</dd>
<dt>Date</dt><dd><time datetime="${report.date.toISOString()}">${formatDate(report.date)}</time></dd>
<dt>Checks</dt><dd id="totals"><span data-total="all">${counts.all}</span> checks: <span data-total="passed">${counts.passed}</span> passed, <span data-total="failed">${counts.failed}</span> failed, <span data-total="skipped">${counts.skipped}</span> skipped</dd>
<dt>Exit status</dt><dd id="exit-status">${report.exitCode}: ${EXIT_MEANINGS[report.exitCode] ?? 'could not run'}</dd>
</dl>
${report.notes.map((note) => renderHtml`<p class="note">${note}</p>\n`)}</header>
<nav class="filters" aria-label="Filter the checks" hidden>
${FILTERS.map((filter) => renderHtml`<button type="button" data-filter="${filter}" aria-pressed="${filter === 'all'}">${filter} (${counts[filter]})</button>\n`)}<input type="search" id="text-filter" placeholder="Filter by text: a name, a status code, a URL…" aria-label="Filter the checks by text">
<span id="shown"></span>
</nav>
<main>
${report.groups.map(renderGroup)}</main>
<script>${new SafeHtml(REPORT_SCRIPT)}</script>
</body>
</html>
`.markup
}

function renderGroup(group: ReportGroup): SafeHtml {
  const counts = countChecks(group.checks)
  return renderHtml`<section class="group" id="group-${group.id}">
<h2>${group.title} <span class="counts">${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped</span></h2>
<ul class="checks">
${group.checks.map(renderCheck)}</ul>
</section>
`
}

function renderCheck(check: ReportedCheck): SafeHtml {
  const where = [check.file, check.rule].filter(Boolean).join(' · ')
  const failures = check.status === 'failed' && check.messages.map(renderFailure)
  const reason = check.status === 'skipped' && renderHtml`<p class="reason">Skipped: ${check.messages.join('; ')}</p>`
  return renderHtml`<li class="check" data-status="${check.status}">
<span class="status">${STATUS_MARKS[check.status]}</span> <span class="title">${check.title}</span>
<span class="where">${where}</span>
${failures}${reason}</li>
`
}

/** The suite's bug report as it printed it, its `Reproduce: curl …` lines marked out. */
function renderFailure(message: string): SafeHtml {
  const lines = message
    .split('\n')
    .map((line) =>
      line.startsWith('Reproduce: ') ? renderHtml`<span class="curl">${line}</span>` : renderHtml`${line}`,
    )
  return renderHtml`<pre class="failure">${new SafeHtml(lines.join('\n'))}</pre>\n`
}

/** `2025-11-24 09:35:43 UTC`: the same wherever the page is opened. */
function formatDate(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`
}
