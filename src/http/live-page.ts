/**
 * The kit of the live pages a browser opens on the kit's servers: the mock's events (/__mock/events,
 * src/server/events-page.ts) and the proxy's findings (/__proxy/, src/proxy/proxy-page.ts). One skeleton,
 * one look, one Content-Security-Policy, and the browser-side helpers both scripts start with; their
 * streams are event-stream.ts's. What they show is text only (textContent, never markup): the pages show
 * names and bodies that anyone could have sent.
 */

/** Scripts and connections to the page's own server only: no inline script, nothing from elsewhere. */
export const LIVE_PAGE_CSP = "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'"

export interface LivePage {
  /** The tab's title; `heading` the page's. */
  title: string
  heading: string
  /** What the page shows, as HTML written here (never data): one paragraph or more. */
  intro: string
  /** The table's column names. */
  columns: string[]
  /** The id of the table's body, which the script fills. */
  rowsId: string
  /** The URL of the page's script, on the same server (the CSP allows nothing else). */
  script: string
  /** CSS of the page's own (the classes its rows use), after the shared look. */
  style: string
}

/**
 * A live page's HTML: a status line the script keeps up to date (`#status`), the page's intro, and a
 * table whose rows the script writes.
 *
 * @example
 * renderLivePage({ title: 'events', heading: 'Events', intro: '<p>…</p>', columns: ['Time'], rowsId: 'events', script: '/page.js', style: '' })
 */
export function renderLivePage(page: LivePage): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${page.title}</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 2rem; color: #1d2433; }
h1 { font-size: 1.3rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid #e3e6ec; vertical-align: top; }
code, pre { font-size: 12px; }
pre { white-space: pre-wrap; word-break: break-all; }
#status { color: #5f6675; }
${page.style}
</style>
</head>
<body>
<h1>${page.heading}</h1>
<p id="status">Connecting…</p>
${page.intro}
<table>
<thead><tr>${page.columns.map((column) => `<th>${column}</th>`).join('')}</tr></thead>
<tbody id="${page.rowsId}"></tbody>
</table>
<script src="${page.script}"></script>
</body>
</html>
`
}

/**
 * What each live page's script starts with, in the browser: `rows` (the table's body), `cell()` (a cell of
 * text) and `follow()` (the page's EventSource, which keeps `#status` saying whether it is live).
 */
export const LIVE_PAGE_SCRIPT_KIT = `'use strict'
const rows = document.querySelector('tbody')
const status = document.getElementById('status')
function cell(row, text, className) {
  const td = row.insertCell()
  td.textContent = text
  if (className) td.className = className
  return td
}
function follow(url, liveText) {
  const stream = new EventSource(url)
  stream.onopen = () => { status.textContent = liveText }
  stream.onerror = () => { status.textContent = 'Disconnected; reconnecting…' }
  return stream
}
`
