/**
 * How `verify` hands the run's settings to the suite's workers: environment variables of its own
 * process, which vitest's worker threads inherit. The target, tokens included, goes this way too, so
 * that no file holds it (nothing to leave behind when a run is interrupted).
 */
export const SUITE_ENV = {
  /** The target, as JSON (target.ts). */
  target: 'USERS_API_KIT_TARGET',
  spec: 'USERS_API_KIT_SPEC',
  layer: 'USERS_API_KIT_LAYER',
  readOnly: 'USERS_API_KIT_READ_ONLY',
  timeoutMs: 'USERS_API_KIT_TIMEOUT_MS',
  maxResponseBytes: 'USERS_API_KIT_MAX_RESPONSE_BYTES',
  showSecrets: 'USERS_API_KIT_SHOW_SECRETS',
  /** When the run must end (--run-timeout), in milliseconds since the epoch. */
  runDeadline: 'USERS_API_KIT_RUN_DEADLINE',
} as const
