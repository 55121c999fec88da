import { LIVE_PAGE_SCRIPT_KIT, renderLivePage } from '../http/live-page.js'

/**
 * What a browser shows at /__mock/events: the recent events and their deliveries, kept live by the SSE
 * stream of the same URL (the live-page kit of src/http/live-page.ts, as the proxy's page).
 */
export const EVENTS_PAGE_HTML = renderLivePage({
  title: 'users-api-kit mock: events',
  heading: 'Events of the mock',
  intro:
    '<p>The webhooks the mock sends (docs/mock.md, "Events"): newest first, with every delivery attempt. JSON: <code>curl http://…/__mock/events</code>.</p>',
  columns: ['Time', 'Event', 'User', 'Changes', 'Deliveries'],
  rowsId: 'events',
  script: '/__mock/events-page.js',
  style: '.delivered { color: #137333; } .failed, .dropped { color: #b3261e; } .pending { color: #8a5a00; }',
})

export const EVENTS_PAGE_SCRIPT = `${LIVE_PAGE_SCRIPT_KIT}const events = new Map()
function render() {
  rows.replaceChildren()
  for (const event of [...events.values()].reverse()) {
    const row = rows.insertRow()
    cell(row, event.payload.timestamp)
    cell(row, event.type + ' ' + event.id)
    cell(row, event.payload.data.user.name + ' (' + event.userId + ')')
    cell(row, (event.payload.data.changes || []).join(', '))
    const deliveries = event.deliveries.length === 0 ? 'no endpoint subscribed' : event.deliveries.map((delivery) =>
      delivery.url + ': ' + delivery.state + ' (' + delivery.attempts.map((attempt) => attempt.status || attempt.error).join(', ') + ')' + (delivery.note ? ' ' + delivery.note : '')).join('\\n')
    cell(row, deliveries, event.deliveries[0] && event.deliveries[0].state).style.whiteSpace = 'pre-line'
  }
}
const stream = follow('/__mock/events', 'Live: new events appear as the mock sends them.')
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
