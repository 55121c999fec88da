/** The body limit of every route (docs/contract.md §4): 16 KiB; one byte more is a 413. */
export const BODY_LIMIT = 16 * 1024

/**
 * A JSON body of exactly `bytes` bytes: `{"name":"xxx…"}`, a name far too long, so that it is a 400 if
 * it gets that far and can change nothing even on a backend that breaks the rule under test.
 */
export function bodyOfSize(bytes: number): string {
  const frame = JSON.stringify({ name: '' }).length
  return JSON.stringify({ name: 'x'.repeat(bytes - frame) })
}
