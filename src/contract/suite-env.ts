/** How `verify` hands the run's settings to the suite's workers. */
export const SUITE_ENV = {
  target: 'USERS_API_KIT_TARGET_FILE',
  spec: 'USERS_API_KIT_SPEC',
  layer: 'USERS_API_KIT_LAYER',
  readOnly: 'USERS_API_KIT_READ_ONLY',
  timeoutMs: 'USERS_API_KIT_TIMEOUT_MS',
} as const
