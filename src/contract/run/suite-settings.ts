import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS } from '../../http/response-limits.js'
import type { SuiteLayer } from '../client/response-schemas.js'
import type { LoadedSpec } from '../../spec/load-spec.js'

/**
 * What `verify` tells the suite's workers about the run: vitest's `provide` carries it to them and the
 * suite reads it with `inject(SUITE_SETTINGS)` (contract-tests/support/suite.ts). Nothing of it, the
 * target's tokens least of all, goes into the environment of the process or of anything it starts.
 */
export interface SuiteSettings {
  /** The target as the target file holds it (target.ts parses it in the worker). */
  target: unknown
  /** A document of one's own (`--spec`), else the kit's. */
  spec?: string | undefined
  /**
   * That document, once `verify` has read it: each worker takes it as it is instead of reading it again
   * (vitest's provide keeps the nodes the dereferenced document shares).
   */
  loadedSpec?: LoadedSpec | undefined
  layer: SuiteLayer
  readOnly: boolean
  /** How long a request may take, to the answer's last byte (`--request-timeout`). */
  timeoutMs: number
  maxResponseBytes: number
  /** Whether reports show tokens as sent (`--show-secrets`). */
  showSecrets: boolean
  /** When the run must end (`--run-timeout`), in milliseconds since the epoch. */
  runDeadline: number
  /**
   * Whether the waiting files run in a thread of their own, which they then hold until the other files
   * have ended (suite-config.ts, OTHER_FILES_ENDED).
   */
  ownThreadForWaitingFiles?: boolean
}

/** A run against `target` with verify's defaults: every layer, writes allowed, secrets masked, no deadline. */
export function suiteSettingsFor(target: unknown): SuiteSettings {
  return {
    target,
    layer: 'all',
    readOnly: false,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
    showSecrets: false,
    runDeadline: Number.MAX_SAFE_INTEGER,
  }
}

/** The name the settings are provided under. */
export const SUITE_SETTINGS = 'usersApiKitSuite'
