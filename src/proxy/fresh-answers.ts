/**
 * How recent an answer must be for the proxy to hold a later answer to what it showed of the state (a
 * user INVITED, a whole list), beside no write through the proxy in between: what no proxy sees (an
 * invitation accepted, a client that bypasses it) has a second at most to come between
 * (docs/decisions/0015-what-the-proxy-holds-between-answers.md).
 */
export const FRESH_MS = 1_000
