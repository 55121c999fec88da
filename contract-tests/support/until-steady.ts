/**
 * Reads again, a few times, while a reading is not steady. Other checks change their disposable users
 * while a read-only check compares two readings of the list (the webhook checks in a thread of their own
 * all along, on a slow backend for seconds); a steady backend agrees with itself as soon as nobody writes,
 * so only a real fault survives every try. Eight tries span ~1.4 s of waits: a fault costs that once.
 *
 * @example
 * const pages = await untilSteady(() => walkUsers('owner', {}, 10), isSteadyWalk)
 */
export async function untilSteady<T>(read: () => Promise<T>, isSteady: (value: T) => boolean, tries = 8): Promise<T> {
  let value = await read()
  for (let attempt = 1; attempt < tries && !isSteady(value); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50 * attempt))
    value = await read()
  }
  return value
}
