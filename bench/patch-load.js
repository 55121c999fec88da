// @ts-check
/**
 * The fan-out bench's load generator (bench/webhook-fan-out.ts), in a process of its own: renames users
 * with PATCH, as the owner, for a while, and prints every response time. Each connection renames its own
 * user, one request after another on one kept-alive connection (a user's changes are in order), with
 * names `Fan N` whose N grows (the receiver checks the events' order by it).
 *
 * Usage: node bench/patch-load.js '{"url":…,"userIds":[…],"seconds":5,"warmupSeconds":1,"firstNumber":0,"ratePerSecond":0}'
 *   ratePerSecond 0: each connection sends its next PATCH as soon as the last is answered (closed loop);
 *   N: the connections together start N PATCHes a second, each connection's on its own schedule, and a
 *   late answer delays only its connection's next.
 * Prints one line: `BENCH_PATCH {"latenciesMs":[…sorted],"seconds":…,"failures":…,"lastNumber":…}`.
 */
import { Buffer } from 'node:buffer'
import { Agent, request } from 'node:http'
import { performance } from 'node:perf_hooks'
import { setTimeout as delay } from 'node:timers/promises'

const options = JSON.parse(process.argv[2] ?? '{}')
const { url, userIds, seconds, warmupSeconds, ratePerSecond } = options
let number = options.firstNumber

/** One PATCH; resolves to its status, or the error's code. */
function rename(agent, id) {
  number += 1
  const body = JSON.stringify({ name: `Fan ${number}` })
  return new Promise((resolve) => {
    const outgoing = request(
      `${url}/api/users/${id}`,
      {
        method: 'PATCH',
        agent,
        headers: {
          authorization: 'Bearer owner-token',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        response.resume()
        response.on('end', () => resolve(response.statusCode ?? 0))
        response.on('error', (error) => resolve(error.code ?? error.message))
      },
    )
    outgoing.on('error', (error) => resolve(error.code ?? error.message))
    outgoing.end(body)
  })
}

async function run(durationSeconds, record) {
  const started = performance.now()
  const ends = started + durationSeconds * 1000
  const interval = ratePerSecond > 0 ? (1000 * userIds.length) / ratePerSecond : 0
  await Promise.all(
    userIds.map(async (id, index) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 })
      // Open loop: the connections' schedules are spread over one interval.
      let due = started + (interval * index) / userIds.length
      for (;;) {
        if (interval > 0) await delay(Math.max(0, due - performance.now()))
        // From when it was sent: a timer late on a busy machine is the load generator's delay, not the mock's.
        const sent = performance.now()
        if (sent >= ends) break
        const status = await rename(agent, id)
        record(performance.now() - sent, status)
        due += interval
        if (interval > 0 && due < performance.now()) due = performance.now()
      }
      agent.destroy()
    }),
  )
  return (performance.now() - started) / 1000
}

const latencies = []
const failures = new Map()
await run(warmupSeconds, () => undefined)
const measured = await run(seconds, (ms, status) => {
  if (status === 200) latencies.push(ms)
  else failures.set(String(status), (failures.get(String(status)) ?? 0) + 1)
})
latencies.sort((a, b) => a - b)
console.log(
  `BENCH_PATCH ${JSON.stringify({ latenciesMs: latencies.map((ms) => Math.round(ms * 1000) / 1000), seconds: measured, failures: Object.fromEntries(failures), lastNumber: number })}`,
)
