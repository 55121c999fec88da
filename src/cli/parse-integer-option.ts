/**
 * The value of an integer flag, or undefined when it was not given.
 *
 * @throws Error naming the flag when the text is not a whole number of at least `minimum`.
 * @example
 * parseIntegerOption('--seed', '42', 0) // 42
 */
export function parseIntegerOption(flag: string, text: string | undefined, minimum: number): number | undefined {
  if (text === undefined) return undefined
  if (!/^\d+$/.test(text) || Number(text) < minimum)
    throw new Error(`${flag} must be an integer >= ${minimum} (got "${text}").`)
  return Number(text)
}
