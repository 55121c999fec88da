/** CONTRACT §1: a name is 1 to 100 Unicode code points once trimmed (ECMAScript's trim set), stored trimmed. */
export const MAX_NAME_LENGTH = 100

/** What is wrong with a name once trimmed, or undefined when it is a name; the trimmed name beside it. */
export function checkUserName(name: string): { trimmed: string; problem?: string } {
  const trimmed = name.trim()
  const length = [...trimmed].length
  if (length >= 1 && length <= MAX_NAME_LENGTH) return { trimmed }
  return { trimmed, problem: `must be 1 to ${MAX_NAME_LENGTH} characters once trimmed (it has ${length})` }
}
