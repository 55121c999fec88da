/**
 * How much of an answer the kit's clients take (verify's suite, its pre-checks, fuzz's guard, the proxy's
 * copy): a users API's largest answer is a page of 100 users, a few tens of KiB. A backend that answers far
 * more, or never ends, is broken or hostile, and must not take the run's memory or time. What JSON text may
 * hold once read (its depth, its values) is text/json-depth.ts's: it bounds requests too.
 */

/**
 * Per answer, after decompression (`--max-response-bytes`): some 30 times the largest page of the
 * users API. Each answer read to the limit costs the client a few times as much memory for a moment:
 * against an endless body, verify (then on fetch) peaked ~15 MiB above its own floor at 1 MiB, ~75 MiB at 4 MiB.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024

/** How long a request may take, to the answer's last byte, when --request-timeout is not given. */
export const DEFAULT_TIMEOUT_MS = 10_000
