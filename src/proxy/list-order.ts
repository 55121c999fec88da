/** RFC 3339 date-time: a date, a time, a fraction of any length, and Z or an offset. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$/

/** Fraction digits compared: far below any clock a backend has. */
const FRACTION_DIGITS = 12

/**
 * An RFC 3339 instant as text that sorts as the instants do (whole seconds since 1970, then the fraction
 * to 12 digits), whatever precision each backend writes: whole seconds and milliseconds compare right.
 * Undefined when the text is no such date-time (the schema check reports it).
 *
 * @example
 * sortableInstant('2024-01-01T00:00:00Z') < sortableInstant('2024-01-01T00:00:00.5Z') // true
 */
export function sortableInstant(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined
  const match = DATE_TIME.exec(text)
  if (!match) return undefined
  const [, year, month, day, hour, minute, second, fraction = '', zone = 'Z'] = match
  const offsetMinutes =
    zone.toUpperCase() === 'Z'
      ? 0
      : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)))
  const seconds =
    Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)) / 1000 -
    offsetMinutes * 60
  if (!Number.isFinite(seconds)) return undefined
  // Positive for any date after 1970 - 10^14 s: padded, the text sorts as the number does.
  return `${String(seconds + 1e14).padStart(16, '0')}.${fraction.padEnd(FRACTION_DIGITS, '0').slice(0, FRACTION_DIGITS)}`
}

/** RFC 3339 in UTC with an upper-case T and Z: two of the same length sort as text sorts (same fraction digits). */
const UTC_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/

/**
 * Two RFC 3339 instants compared: negative when `a` is earlier, 0 for the same instant (whatever the
 * precision of each), undefined when either is no date-time. Two texts written alike (what one backend
 * writes, every time) compare as text, without parsing: the proxy compares timestamps on every answer.
 *
 * @example
 * compareInstants('2024-01-01T00:00:00Z', '2024-01-01T00:00:00.000Z') // 0
 */
export function compareInstants(a: unknown, b: unknown): number | undefined {
  if (typeof a === 'string' && a === b) return UTC_DATE_TIME.test(a) || sortableInstant(a) !== undefined ? 0 : undefined
  if (typeof a === 'string' && typeof b === 'string' && a.length === b.length) {
    if (UTC_DATE_TIME.test(a) && UTC_DATE_TIME.test(b)) return a < b ? -1 : 1
  }
  const [first, second] = [sortableInstant(a), sortableInstant(b)]
  if (first === undefined || second === undefined) return undefined
  return first === second ? 0 : first < second ? -1 : 1
}

/**
 * docs/contract.md §4: `createdAt` ascending, ties broken by `id` ascending (plain string comparison).
 * Negative when `a` comes first; undefined when a createdAt cannot be read.
 */
export function compareListOrder(
  a: { id: string; createdAt?: unknown },
  b: { id: string; createdAt?: unknown },
): number | undefined {
  const order = compareInstants(a.createdAt, b.createdAt)
  if (order === undefined || order !== 0) return order
  return a.id === b.id ? 0 : a.id < b.id ? -1 : 1
}
