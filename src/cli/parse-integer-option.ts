/**
 * The value of an integer flag, or undefined when it was not given.
 *
 * @throws Error naming the flag when the text is not a whole number from `minimum` to `maximum`.
 * @example
 * parseIntegerOption('--seed', '42', 0) // 42
 */
export function parseIntegerOption(
  flag: string,
  text: string | undefined,
  minimum: number,
  maximum = Number.POSITIVE_INFINITY,
): number | undefined {
  if (text === undefined) return undefined
  if (!/^\d+$/.test(text) || Number(text) < minimum || Number(text) > maximum) {
    const range = Number.isFinite(maximum) ? `from ${minimum} to ${maximum}` : `>= ${minimum}`
    throw new Error(`${flag} must be an integer ${range} (got "${text}").`)
  }
  return Number(text)
}
