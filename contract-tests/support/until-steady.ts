/**
 * Reads again, a few times, while a reading is not steady. Other test files change their disposable
 * users while a read-only check compares two readings of the list; a steady backend agrees with itself
 * as soon as nobody writes, so only a real fault survives every try.
 *
 * @example
 * const pages = await untilSteady(() => walkUsers('owner', {}, 10), isSteadyWalk)
 */
export async function untilSteady<T>(read: () => Promise<T>, isSteady: (value: T) => boolean, tries = 4): Promise<T> {
  let value = await read()
  for (let attempt = 1; attempt < tries && !isSteady(value); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50 * attempt))
    value = await read()
  }
  return value
}
