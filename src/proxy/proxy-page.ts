import { LIVE_PAGE_SCRIPT_KIT, renderLivePage } from '../http/live-page.js'

/**
 * What a browser shows at /__proxy/: the findings as they happen, fed by the SSE stream
 * /__proxy/events, each with its exchange and a curl (the live-page kit of src/http/live-page.ts, as the
 * mock's events page).
 */
export const PROXY_PAGE_HTML = renderLivePage({
  title: 'users-api-kit proxy: findings',
  heading: 'Findings of the proxy',
  intro: `<p id="counts"></p>
<p>Every answer of the upstream is checked against docs/contract.md as it passes (docs/proxy.md): newest first. Tokens are masked. JSON: <code>curl http://…/__proxy/violations</code>.
<label><input type="checkbox" id="show-client"> also the client's own mistakes</label></p>`,
  columns: ['Time', 'Finding', 'Exchange', 'What'],
  rowsId: 'findings',
  script: '/__proxy/page.js',
  style:
    '.violation { color: #b3261e; } .client { color: #5f6675; } .unchecked { color: #8a5a00; }\n#counts { color: #5f6675; }',
})

export const PROXY_PAGE_SCRIPT = `${LIVE_PAGE_SCRIPT_KIT}const KEEP = 200
const entries = []
const counts = document.getElementById('counts')
const showClient = document.getElementById('show-client')
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
  rows.replaceChildren()
  for (const entry of [...entries].reverse()) {
    if (entry.kind === 'client' && !showClient.checked) continue
    const row = rows.insertRow()
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
const stream = follow('/__proxy/events', 'Live: findings appear as the traffic passes.')
stream.addEventListener('finding', (message) => {
  const { entry, counts: numbers } = JSON.parse(message.data)
  if (!entries.some((known) => known.id === entry.id)) entries.push(entry)
  if (entries.length > KEEP) entries.shift()
  showCounts(numbers)
  render()
})
stream.addEventListener('counts', (message) => showCounts(JSON.parse(message.data)))
`
