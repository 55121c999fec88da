import { parseIntegerOption } from './parse-integer-option.js'

/** The flags every command that tests a backend takes: what to test, against which document. */
export const TARGET_OPTIONS = {
  target: { type: 'string' },
  'base-url': { type: 'string' },
  spec: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

/** The flags `fuzz` and `gate` pass on to Schemathesis. */
export const FUZZ_OPTIONS = {
  'max-examples': { type: 'string' },
  seed: { type: 'string' },
  workers: { type: 'string' },
  'read-only': { type: 'boolean' },
  junit: { type: 'string' },
  schemathesis: { type: 'string' },
} as const

interface TargetValues {
  target?: string
  'base-url'?: string
  spec?: string
  help?: boolean
}

interface FuzzValues {
  'max-examples'?: string
  seed?: string
  workers?: string
  'read-only'?: boolean
  junit?: string
  schemathesis?: string
}

/** @throws Error unless exactly one of --target and --base-url is given (or --help). */
export function readTargetOptions(values: TargetValues) {
  if (!values.help && !values.target === !values['base-url']) {
    throw new Error('give exactly one of --target FILE and --base-url URL.')
  }
  return { help: values.help ?? false, targetFile: values.target, baseUrl: values['base-url'], spec: values.spec }
}

export function readFuzzOptions(values: FuzzValues) {
  return {
    maxExamples: parseIntegerOption('--max-examples', values['max-examples'], 1),
    seed: parseIntegerOption('--seed', values.seed, 0),
    workers: parseIntegerOption('--workers', values.workers, 1),
    readOnly: values['read-only'] ?? false,
    junit: values.junit,
    schemathesis: values.schemathesis,
  }
}
