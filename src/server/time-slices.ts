import { setImmediate as nextTurn } from 'node:timers/promises'

/**
 * How long work on one request may run before the mock answers others: a state of 100,000 users takes
 * about a second to parse, check and load, which would otherwise stop every other client that long.
 */
const SLICE_MS = 10

/**
 * Cuts long work into slices: call the returned function often; once `budgetMs` has passed since the
 * slice began, it waits a turn of the event loop, so that other requests are answered in between.
 *
 * @example
 * const slice = createTimeSlices()
 * for (const item of items) { work(item); await slice() }
 */
export function createTimeSlices(budgetMs = SLICE_MS): () => Promise<void> {
  let began = performance.now()
  return async () => {
    if (performance.now() - began < budgetMs) return
    await nextTurn()
    began = performance.now()
  }
}

/**
 * Runs a generator of steps to its end in time slices, and answers what it returns.
 *
 * @example
 * const state = await runInSlices(parseStateInSteps(input, validate))
 */
export async function runInSlices<T>(steps: Generator<void, T>, budgetMs = SLICE_MS): Promise<T> {
  const slice = createTimeSlices(budgetMs)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    await slice()
  }
}

/**
 * Each item of `items` on a turn of the event loop of its own: a stream that writes them (an export of
 * the state) lets other requests in between, and makes the next only when the reader has taken the last.
 *
 * @example
 * reply.send(Readable.from(oneATurn(mock.exportStateJson())))
 */
export async function* oneATurn<T>(items: Iterable<T>): AsyncGenerator<T, void> {
  for (const item of items) {
    yield item
    await nextTurn()
  }
}
