/**
 * How much of an answer the kit's clients take (verify's suite, its pre-checks, fuzz's guard): a users
 * API's largest answer is a page of 100 users, a few tens of KiB, and its deepest JSON nests 3 levels.
 * A backend that answers far more is broken or hostile, and must not take the run's memory or stack.
 */

/**
 * Per answer, after decompression (`--max-response-bytes`): some 30 times the largest page of the
 * users API. Each answer read to the limit costs fetch three to four times as much memory for a moment:
 * against an endless body, verify peaked ~15 MiB above its own floor at 1 MiB, ~75 MiB at 4 MiB.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024

/** How long a request may take, to the answer's last byte, when --request-timeout is not given. */
export const DEFAULT_TIMEOUT_MS = 10_000

/** Arrays and objects nested deeper than this are refused before parsing (JSON.parse, Ajv and the checks recurse). */
export const MAX_JSON_DEPTH = 64

/**
 * JSON values (counted as arrays, objects and the commas between their items and members) past which an
 * answer is refused before parsing: ten times a page of 100 users. What an answer costs is what it holds
 * once parsed, not its bytes: 1 MiB of `[{},{},…]` is 350,000 objects, each an error of every check that
 * validates it (verify took 2.9 GiB and 186 s, Schemathesis 6.9 GiB).
 */
export const MAX_JSON_VALUES = 10_000

/**
 * A byte count for people: `4 MiB (4194304 bytes)`, `1500 bytes`.
 *
 * @example
 * describeBytes(4 * 1024 * 1024) // '4 MiB (4194304 bytes)'
 */
export function describeBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB (${bytes} bytes)`
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB (${bytes} bytes)`
  return `${bytes} bytes`
}
