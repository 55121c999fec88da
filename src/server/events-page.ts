/**
 * What a browser shows at /__mock/events: the recent events and their deliveries, kept live by the SSE
 * stream of the same URL. Text only (textContent), its one script from the mock itself (CSP).
 */
export const EVENTS_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>users-api-kit mock: events</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 2rem; color: #1d2433; }
h1 { font-size: 1.3rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid #e3e6ec; vertical-align: top; }
code { font-size: 12px; }
.delivered { color: #137333; } .failed, .dropped { color: #b3261e; } .pending { color: #8a5a00; }
#status { color: #5f6675; }
</style>
</head>
<body>
<h1>Events of the mock</h1>
<p id="status">Connecting…</p>
<p>The webhooks the mock sends (docs/mock.md, "Events"): newest first, with every delivery attempt. JSON: <code>curl http://…/__mock/events</code>.</p>
<table>
<thead><tr><th>Time</th><th>Event</th><th>User</th><th>Changes</th><th>Deliveries</th></tr></thead>
<tbody id="events"></tbody>
</table>
<script src="/__mock/events-page.js"></script>
</body>
</html>
`

export const EVENTS_PAGE_SCRIPT = `'use strict'
const events = new Map()
const body = document.getElementById('events')
const status = document.getElementById('status')
function cell(row, text, className) {
  const td = row.insertCell()
  td.textContent = text
  if (className) td.className = className
  return td
}
function render() {
  body.replaceChildren()
  for (const event of [...events.values()].reverse()) {
    const row = body.insertRow()
    cell(row, event.payload.timestamp)
    cell(row, event.type + ' ' + event.id)
    cell(row, event.payload.data.user.name + ' (' + event.userId + ')')
    cell(row, (event.payload.data.changes || []).join(', '))
    const deliveries = event.deliveries.length === 0 ? 'no endpoint subscribed' : event.deliveries.map((delivery) =>
      delivery.url + ': ' + delivery.state + ' (' + delivery.attempts.map((attempt) => attempt.status || attempt.error).join(', ') + ')' + (delivery.note ? ' ' + delivery.note : '')).join('\\n')
    cell(row, deliveries, event.deliveries[0] && event.deliveries[0].state).style.whiteSpace = 'pre-line'
  }
}
const stream = new EventSource('/__mock/events')
stream.onopen = () => { status.textContent = 'Live: new events appear as the mock sends them.' }
stream.onerror = () => { status.textContent = 'Disconnected; reconnecting…' }
stream.addEventListener('event', (message) => { const event = JSON.parse(message.data); events.set(event.id, event); render() })
stream.addEventListener('delivery', (message) => {
  const delivery = JSON.parse(message.data)
  const event = events.get(delivery.eventId)
  if (!event) return
  const index = event.deliveries.findIndex((known) => known.endpointId === delivery.endpointId)
  delete delivery.eventId
  if (index === -1) event.deliveries.push(delivery); else event.deliveries[index] = delivery
  render()
})
stream.addEventListener('reset', () => { events.clear(); render() })
`
