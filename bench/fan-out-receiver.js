// @ts-check
/**
 * The fan-out bench's webhook receiver (bench/webhook-fan-out.ts): every endpoint's URL is
 * `http://127.0.0.1:PORT/hooks/N`, all answered here with 204 at once, in a process of its own (pinned
 * beside the load generator, away from the mock). It reads each delivery's payload only to check that
 * one endpoint gets one user's events in the order of the changes (the names the load generator gives
 * carry a number that grows), and counts. `GET /stats` answers what it saw since the last `GET /stats`.
 *
 * Usage: node bench/fan-out-receiver.js   (prints `listening http://127.0.0.1:PORT` once it listens)
 */
import { Buffer } from 'node:buffer'
import { createServer } from 'node:http'

/** `${path} ${userId}` → the last number seen in that user's name at that endpoint. */
const last = new Map()
let deliveries = 0
let outOfOrder = 0
let repeated = 0

const server = createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/stats') {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ deliveries, outOfOrder, repeated }))
    deliveries = 0
    outOfOrder = 0
    repeated = 0
    return
  }
  const chunks = []
  request.on('data', (chunk) => chunks.push(chunk))
  request.on('end', () => {
    response.writeHead(204).end()
    deliveries += 1
    const user = JSON.parse(Buffer.concat(chunks).toString('utf8')).data.user
    const number = Number(/(\d+)$/.exec(user.name)?.[1] ?? Number.NaN)
    const key = `${request.url} ${user.id}`
    const previous = last.get(key)
    // A retry sends an event again (at least once); an earlier change after a later one is a fault.
    if (previous !== undefined && number === previous) repeated += 1
    else if (previous !== undefined && number < previous) outOfOrder += 1
    last.set(key, number)
  })
})
server.keepAliveTimeout = 60_000
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  console.log(`listening http://127.0.0.1:${address.port}`)
})
