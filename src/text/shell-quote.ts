/**
 * A word for a POSIX shell: as it is when it holds nothing a shell acts on, else in single quotes (a
 * quote in it closed, escaped and reopened). Pasted, it is one argument, whatever it holds.
 *
 * @example
 * shellQuote('http://127.0.0.1:4010/api') // 'http://127.0.0.1:4010/api' (as is)
 * shellQuote("it's") // "'it'\\''s'"
 */
export function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`
}
