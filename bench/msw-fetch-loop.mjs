// Part 8's child process (msw-in-process.ts): `fetch` under msw/node's setupServer, as a frontend's unit
// tests call it, answered by users-api-kit/msw (the built package) or by a hand-written msw handler that
// answers the very bytes the kit answered. Plain JavaScript on the built dist/, so nothing is transformed
// while it runs. Prints one JSON line: microseconds per fetch, each round, for each handler and path.
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { createMockHandlers } from '../dist/msw/index.js'

const [warmupMs, roundMs, rounds] = process.argv.slice(2).map(Number)
const API = 'http://localhost:4010'
const TOKEN = 'owner-token'
const PATHS = { me: '/api/users/me', page: '/api/users?limit=20' }
const init = { headers: { authorization: `Bearer ${TOKEN}` } }

const kit = createMockHandlers({ baseUrl: API })
const server = setupServer(...kit.handlers)
server.listen({ onUnhandledFrame: 'error' })

/** The kit's answer to each path, byte for byte: what the hand-written handlers send back. */
const answers = {}
for (const [name, path] of Object.entries(PATHS)) {
  const response = await fetch(`${API}${path}`, init)
  answers[name] = { status: response.status, type: response.headers.get('content-type'), body: await response.text() }
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${answers[name].body}`)
}
// The plainest msw handlers: match the path, answer the bytes. No auth, no query, no state.
const handWritten = Object.entries(PATHS).map(([name, path]) =>
  http.get(`${API}${path.split('?')[0]}`, () => {
    const { status, type, body } = answers[name]
    return new HttpResponse(body, { status, headers: { 'content-type': type } })
  }),
)
const handlers = { kit: kit.handlers, hand: handWritten }

/** Sequential fetches of `path` for `ms`, each body read: microseconds per fetch. */
async function loop(path, ms) {
  const url = `${API}${path}`
  let count = 0
  const started = performance.now()
  let now = started
  while (now - started < ms) {
    for (let i = 0; i < 50; i += 1) {
      const response = await fetch(url, init)
      await response.text()
    }
    count += 50
    now = performance.now()
  }
  return ((now - started) * 1000) / count
}

const results = {}
for (const [name, path] of Object.entries(PATHS)) {
  results[name] = { kit: [], hand: [] }
  for (const which of ['hand', 'kit']) {
    server.resetHandlers(...handlers[which])
    await loop(path, warmupMs)
  }
  // Alternated rounds: a drift of the machine lands on both.
  for (let round = 0; round < rounds; round += 1) {
    for (const which of ['hand', 'kit']) {
      server.resetHandlers(...handlers[which])
      results[name][which].push(await loop(path, roundMs))
    }
  }
}
server.close()
console.log(
  JSON.stringify({ results, bytes: Object.fromEntries(Object.entries(answers).map(([k, v]) => [k, v.body.length])) }),
)
