/** What the scheduler asks of an endpoint's queue (endpoint-queue.ts). */
export interface ScheduledQueue {
  /**
   * Starts the queue's next delivery that may go now, which calls sent() once it has gone out and done()
   * once it ended; false when none may (its places all taken, or its users' next events waiting).
   */
  startNext(): boolean
}

/**
 * When deliveries start, for all the endpoints of a mock at once: one a turn of the event loop (the next
 * once the last has gone out), the endpoints taking turns, and at most `limit` in flight overall; one in
 * flight for over a second counts no more (endpoint-queue.ts), so that receivers that hang hold up no
 * others. A delivery is an HTTP request made on the event loop that answers the API: each answer to one
 * started its endpoint's next at once, so that with 100 endpoints hundreds were started and read between
 * two API requests (PATCHes one after another took 11 to 26 ms at the median instead of 0.4 to 1.1: npm
 * run bench:webhooks). Here an answer only frees its place, and an API request that came meanwhile waits
 * behind one delivery's start, and the answers in flight, at most.
 */
export class DeliveryScheduler {
  /** The queues that may have a delivery to start, in the order they take turns. */
  private readonly ready = new Set<ScheduledQueue>()
  private inFlight = 0
  /** A turn is queued, or a delivery started and not sent yet. */
  private busy = false

  constructor(private readonly limit: number) {}

  /** The queue has a delivery that may start (a new one, a retry due, a place free). */
  wake(queue: ScheduledQueue): void {
    this.ready.add(queue)
    this.schedule()
  }

  /** The delivery startNext() started has gone out, or will not (it failed before). */
  sent(): void {
    this.busy = false
    this.schedule()
  }

  /** A delivery startNext() started ended (answered, failed or aborted), or was slow enough to count no more. */
  done(): void {
    this.inFlight -= 1
    this.schedule()
  }

  private schedule(): void {
    if (this.busy || this.ready.size === 0 || this.inFlight >= this.limit) return
    this.busy = true
    nextTurn(this.turn)
  }

  private readonly turn = (): void => {
    for (const queue of this.ready) {
      this.ready.delete(queue)
      if (queue.startNext()) {
        this.inFlight += 1
        // To the back: the other endpoints go first.
        this.ready.add(queue)
        return
      }
    }
    this.busy = false
  }
}

/**
 * A later turn of the event loop, after the I/O waiting now: setImmediate in Node; a message where there
 * is none (browsers, whose timers of 0 ms wait 4 ms once nested).
 */
export function nextTurn(run: () => void): void {
  if (typeof setImmediate === 'function') setImmediate(run)
  else if (typeof MessageChannel === 'function') {
    const channel = new MessageChannel()
    channel.port1.addEventListener('message', () => {
      channel.port1.close()
      run()
    })
    // A listener added this way needs the port started (onmessage would start it).
    channel.port1.start()
    channel.port2.postMessage(undefined)
  } else setTimeout(run, 0)
}
