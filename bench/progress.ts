/** Progress goes to stderr; the report to stdout. */
export function log(message: string): void {
  console.error(message)
}
