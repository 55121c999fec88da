/**
 * Control characters a terminal acts on, as a server could send them: C0 (ESC starts the sequences that
 * retitle a window, clear the screen or move the cursor; CR overwrites a line), DEL, C1 (U+009B is a
 * one-character CSI), the line and paragraph separators, and the bidirectional overrides that make text
 * read otherwise than it is.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const SINGLE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g
/** The same, but a new line and a tab are left as they are: text that is printed over several lines. */
// eslint-disable-next-line no-control-regex -- the same, less new line and tab
const MULTI_LINE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

/**
 * Text from a server made safe to print: each control character written out as an escape (`\x1b`,
 * `\u202e`), so that what reaches a terminal or a CI log is visible and inert. `multiline` keeps new
 * lines and tabs (for the kit's own multi-line reports, whose server-given parts are escaped whole).
 *
 * @example
 * escapeControlCharacters('\u001b]0;owned\u0007') // '\\x1b]0;owned\\x07'
 */
export function escapeControlCharacters(text: string, options: { multiline?: boolean } = {}): string {
  return text.replace(options.multiline ? MULTI_LINE : SINGLE_LINE, (character) => {
    const code = character.charCodeAt(0)
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
  })
}
