/**
 * What a browser shows at /__proxy/: the findings as they happen, fed by the SSE stream
 * /__proxy/events, each with its exchange and a curl. As the mock's events page (src/server/
 * events-page.ts): text only (textContent, never markup), its one script from the proxy itself (CSP).
 */
export const PROXY_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>users-api-kit proxy: findings</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 2rem; color: #1d2433; }
h1 { font-size: 1.3rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid #e3e6ec; vertical-align: top; }
code, pre { font-size: 12px; white-space: pre-wrap; word-break: break-all; }
.violation { color: #b3261e; } .client { color: #5f6675; } .unchecked { color: #8a5a00; }
#status, #counts { color: #5f6675; }
</style>
</head>
<body>
<h1>Findings of the proxy</h1>
<p id="status">Connecting…</p>
<p id="counts"></p>
<p>Every answer of the upstream is checked against docs/contract.md as it passes (docs/proxy.md): newest first. Tokens are masked. JSON: <code>curl http://…/__proxy/violations</code>.
<label><input type="checkbox" id="show-client"> also the client's own mistakes</label></p>
<table>
<thead><tr><th>Time</th><th>Finding</th><th>Exchange</th><th>What</th></tr></thead>
<tbody id="findings"></tbody>
</table>
<script src="/__proxy/page.js"></script>
</body>
</html>
`

export const PROXY_PAGE_SCRIPT = `'use strict'
const KEEP = 200
const entries = []
const body = document.getElementById('findings')
const status = document.getElementById('status')
const counts = document.getElementById('counts')
const showClient = document.getElementById('show-client')
function cell(row, text, className) {
  const td = row.insertCell()
  td.textContent = text
  if (className) td.className = className
  return td
}
function details(td, summary, text) {
  const box = document.createElement('details')
  const title = document.createElement('summary')
  title.textContent = summary
  const pre = document.createElement('pre')
  pre.textContent = text
  box.append(title, pre)
  td.append(box)
}
function render() {
  body.replaceChildren()
  for (const entry of [...entries].reverse()) {
    if (entry.kind === 'client' && !showClient.checked) continue
    const row = body.insertRow()
    row.className = entry.kind
    cell(row, entry.at)
    cell(row, '[' + entry.check + '] ' + entry.sentences.join(' '), entry.kind)
    cell(row, entry.method + ' ' + entry.target + ' → ' + (entry.status || 'no answer'))
    const what = cell(row, entry.message)
    what.style.whiteSpace = 'pre-line'
    details(what, 'curl', entry.curl)
    details(what, 'report', entry.report)
  }
}
function showCounts(numbers) {
  const plural = (count, noun) => count + ' ' + noun + (count === 1 ? '' : 's')
  counts.textContent = plural(numbers.exchanges, 'exchange') + ', ' + numbers.judged + ' of the users API checked: ' +
    plural(numbers.violations, 'violation') + ', ' + numbers.client + " of the client's own mistakes, " + numbers.unchecked + ' not checked.'
}
showClient.addEventListener('change', render)
const stream = new EventSource('/__proxy/events')
stream.onopen = () => { status.textContent = 'Live: findings appear as the traffic passes.' }
stream.onerror = () => { status.textContent = 'Disconnected; reconnecting…' }
stream.addEventListener('finding', (message) => {
  const { entry, counts: numbers } = JSON.parse(message.data)
  if (!entries.some((known) => known.id === entry.id)) entries.push(entry)
  if (entries.length > KEEP) entries.shift()
  showCounts(numbers)
  render()
})
stream.addEventListener('counts', (message) => showCounts(JSON.parse(message.data)))
`
