import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS } from '../http/response-limits.js'
import { parseIntegerOption } from './parse-integer-option.js'

export { DEFAULT_TIMEOUT_MS }

/** The flags every command that tests a backend takes: what to test, against which document, how patiently. */
export const TARGET_OPTIONS = {
  target: { type: 'string' },
  'base-url': { type: 'string' },
  'control-token': { type: 'string' },
  spec: { type: 'string' },
  'request-timeout': { type: 'string' },
  /** The earlier name of --request-timeout, still accepted. */
  timeout: { type: 'string' },
  'run-timeout': { type: 'string' },
  'max-response-bytes': { type: 'string' },
  'show-secrets': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

/** Five minutes a request at most: an answer that takes longer is no answer a client waits for. */
const MAX_TIMEOUT_MS = 300_000

/** --max-response-bytes: at least 1 KiB (a problem body), at most 1 GiB (the kit holds it in memory). */
const MIN_RESPONSE_BYTES = 1024
const MAX_RESPONSE_BYTES = 1024 * 1024 * 1024

/** The whole run of the contract suite, when --run-timeout is not given: a run against the mock takes seconds. */
const DEFAULT_RUN_TIMEOUT_S = 900

/** --run-timeout: at most a day, in seconds. */
const MAX_RUN_TIMEOUT_S = 86_400

/**
 * Where --control-token is read from when the flag is not given, by the mock and the commands that call
 * it (a flag would show in the process list).
 */
export const CONTROL_TOKEN_ENV = 'USERS_API_KIT_CONTROL_TOKEN'

/** The flags `fuzz` and `gate` pass on to Schemathesis. */
export const FUZZ_OPTIONS = {
  'max-examples': { type: 'string' },
  seed: { type: 'string' },
  workers: { type: 'string' },
  'read-only': { type: 'boolean' },
  junit: { type: 'string' },
  out: { type: 'string' },
  schemathesis: { type: 'string' },
} as const

interface TargetValues {
  target?: string
  'base-url'?: string
  'control-token'?: string
  spec?: string
  'request-timeout'?: string
  timeout?: string
  'run-timeout'?: string
  'max-response-bytes'?: string
  'show-secrets'?: boolean
  help?: boolean
}

interface FuzzValues {
  'max-examples'?: string
  seed?: string
  workers?: string
  'read-only'?: boolean
  junit?: string
  out?: string
  schemathesis?: string
}

/**
 * The target flags; the control token falls back to USERS_API_KIT_CONTROL_TOKEN. Every answer is read
 * within --request-timeout (the whole exchange; --timeout is its earlier name) and --max-response-bytes
 * (after decompression); the suite's whole run within --run-timeout.
 *
 * @throws Error unless exactly one of --target and --base-url is given (or --help), or for a bad timeout.
 */
export function readTargetOptions(values: TargetValues, env: Record<string, string | undefined> = process.env) {
  if (!values.help && !values.target === !values['base-url']) {
    throw new Error('give exactly one of --target FILE and --base-url URL.')
  }
  if (values.timeout !== undefined && values['request-timeout'] !== undefined) {
    throw new Error('give --request-timeout or its earlier name --timeout, not both.')
  }
  const [timeoutFlag, timeout] =
    values.timeout !== undefined ? ['--timeout', values.timeout] : ['--request-timeout', values['request-timeout']]
  return {
    help: values.help ?? false,
    targetFile: values.target,
    baseUrl: values['base-url'],
    controlToken: values['control-token'] ?? (env[CONTROL_TOKEN_ENV] || undefined),
    spec: values.spec,
    timeoutMs: parseIntegerOption(timeoutFlag, timeout, 1, MAX_TIMEOUT_MS) ?? DEFAULT_TIMEOUT_MS,
    runTimeoutMs:
      (parseIntegerOption('--run-timeout', values['run-timeout'], 1, MAX_RUN_TIMEOUT_S) ?? DEFAULT_RUN_TIMEOUT_S) *
      1000,
    maxResponseBytes:
      parseIntegerOption(
        '--max-response-bytes',
        values['max-response-bytes'],
        MIN_RESPONSE_BYTES,
        MAX_RESPONSE_BYTES,
      ) ?? DEFAULT_MAX_RESPONSE_BYTES,
    showSecrets: values['show-secrets'] ?? false,
  }
}

export function readFuzzOptions(values: FuzzValues) {
  return {
    maxExamples: parseIntegerOption('--max-examples', values['max-examples'], 1),
    seed: parseIntegerOption('--seed', values.seed, 0),
    workers: parseIntegerOption('--workers', values.workers, 1),
    readOnly: values['read-only'] ?? false,
    junit: values.junit,
    /** The folder every report of the run goes into (report-files.ts); made if missing, never cleaned up. */
    out: values.out,
    schemathesis: values.schemathesis,
  }
}
