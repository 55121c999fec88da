import { performance } from 'node:perf_hooks'
import autocannon from 'autocannon'
import { CYCLE, PLANNERS, type PlannedRequest, type SoakWorld } from './soak-requests.js'
import type { SoakTally } from './soak-tally.js'

export interface TrafficOptions {
  url: string
  connections: number
  seconds: number
  /** Response times before this many seconds are not kept (the counts are). */
  warmupSeconds: number
  world: SoakWorld
  tally: SoakTally
  /** Called once the warm-up is over, with the traffic still running. */
  onWarm?: () => void
}

export interface TrafficRun {
  seconds: number
  /** Connection errors and timeouts, as autocannon counts them. */
  errors: number
  timeouts: number
  /** Requests sent whose answer did not arrive before the end (cut off by autocannon's stop). */
  unanswered: number
  /** Of these, DELETEs: the mock may have deleted the user without the soak learning it. */
  unansweredDeletes: number
}

interface Context extends Record<string, unknown> {
  planned?: PlannedRequest
  sentAt?: number
}

/**
 * Full-speed mixed traffic from autocannon: each connection sends CYCLE over and over, every request
 * planned as it is sent (a leased disposable user, the next search term…) and checked against its one
 * expected status as it is answered.
 *
 * The response times are measured here, not taken from autocannon: when the server closes a connection
 * (the mock's 400 to a body that is not JSON does), autocannon 8 has already written its next request
 * on it, never gets an answer to it, and keeps it at the head of its queue; from then on it matches
 * each response with the request sent before it, and its times grow with every such close. With one
 * request in flight per connection, the answer always belongs to the request planned last.
 */
export function runSoakTraffic(options: TrafficOptions): Promise<TrafficRun> {
  const { world, tally } = options
  const turns = new Map<string, number>()
  let sent = 0
  let sentDeletes = 0
  let answered = 0
  let answeredDeletes = 0
  const requests = CYCLE.map((name) => ({
    setupRequest: (request: object, context: Context) => {
      const turn = turns.get(name) ?? 0
      turns.set(name, turn + 1)
      const planned: PlannedRequest = PLANNERS[name](world, turn)
      context.planned = planned
      // autocannon writes the request right after this call.
      context.sentAt = performance.now()
      sent++
      if (planned.method === 'DELETE' && planned.expected === 204) sentDeletes++
      const { method, path, headers, body } = planned
      // A fresh headers object: autocannon adds Content-Length to it.
      return { ...request, method, path, headers: { ...headers }, ...(body === undefined ? {} : { body }) }
    },
    onResponse: (status: number, body: string, context: Context) => {
      const { planned, sentAt } = context
      context.planned = undefined
      if (!planned) return
      if (sentAt !== undefined && performance.now() >= warmAt) {
        tally.latency(planned.kind, performance.now() - sentAt)
      }
      answered++
      if (planned.method === 'DELETE' && planned.expected === 204) answeredDeletes++
      tally.count(planned, status, body)
      planned.settle?.(status)
    },
  }))
  const warmAt = performance.now() + options.warmupSeconds * 1000
  const warmTimer = setTimeout(() => options.onWarm?.(), options.warmupSeconds * 1000)
  return new Promise((resolve, reject) => {
    autocannon(
      { url: options.url, connections: options.connections, duration: options.seconds, requests },
      (error, result) => {
        clearTimeout(warmTimer)
        if (error) return reject(error)
        resolve({
          seconds: result.duration,
          errors: result.errors,
          timeouts: result.timeouts,
          unanswered: sent - answered,
          unansweredDeletes: sentDeletes - answeredDeletes,
        })
      },
    )
  })
}
