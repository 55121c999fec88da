/**
 * A count and its noun, plural unless the count is 1.
 *
 * @example
 * plural(1, 'exchange') // '1 exchange'
 * plural(3, 'exchange') // '3 exchanges'
 */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
