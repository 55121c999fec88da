// @ts-check
/**
 * The benchmark's reference: a bare Fastify server answering each request the benchmark sends with
 * the exact JSON bytes the mock answered to it (no auth, no validation, no logging). Plain JavaScript,
 * run by `node` like the mock's dist/, so that a cold start compares like with like.
 *
 * Usage: BENCH_BODIES=bodies.json node bench/bare-server.js --port N
 *   bodies.json: { "/api/users/me": "<the JSON text>", "/api/users?limit=20": "…", ... }
 * One GET route per path; a path with several query strings picks its body by the request's URL (a Map
 * lookup, well under a microsecond). Prints `listening http://127.0.0.1:PORT` once it listens.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import Fastify from 'fastify'

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } } })
const bodiesFile = process.env.BENCH_BODIES
if (!bodiesFile) throw new Error('BENCH_BODIES must name a JSON file of { url: body }.')
/** @type {Map<string, string>} */
const bodies = new Map(Object.entries(JSON.parse(readFileSync(bodiesFile, 'utf8'))))

const app = Fastify({ logger: false })
for (const path of new Set([...bodies.keys()].map((url) => url.split('?')[0] ?? url))) {
  app.get(path, (request, reply) => {
    const body = bodies.get(request.url)
    if (body === undefined) return reply.code(404).send()
    reply.header('content-type', 'application/json; charset=utf-8').send(body)
  })
}
await app.listen({ port: Number(values.port), host: '127.0.0.1' })
const address = app.server.address()
console.log(`listening http://127.0.0.1:${typeof address === 'object' && address ? address.port : values.port}`)
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => void app.close().then(() => process.exit(0)))
}
