/**
 * How large a state the mock takes at run time (docs/mock.md, "Control routes"): `PUT /__mock/state`
 * refuses more with a 413, and `POST /__mock/target` stops adding disposable users past its own cap. A
 * state of 1.8 million organizations (51 MB) once ran the mock out of memory. A fixture or state file
 * read at start is not held to them (`--users` may generate a million).
 */
export const STATE_LIMITS = {
  organizations: 10_000,
  users: 100_000,
  /** Disposable users (`POST /__mock/target`) alive at once. */
  disposableUsers: 10_000,
} as const
