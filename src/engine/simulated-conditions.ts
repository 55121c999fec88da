import { AppError, type ErrorDetails } from '../errors.js'
import { codeForStatus } from './problems.js'

/** Conditions a frontend developer asks for, to test loading and error states. */
export interface SimulatedConditions {
  /** `--latency MIN-MAX`: every API call waits a random time in this range (ms). */
  latency?: { min: number; max: number } | undefined
  /** `--fail-rate P`: this fraction of API calls answers 503. */
  failRate?: number | undefined
  random?: (() => number) | undefined
}

/** The longest `Prefer: delay=` honoured, so a typo cannot hang a client for hours. */
const MAX_DELAY_MS = 60_000

/** `Prefer: code=404, delay=300` (RFC 7240; Prism's vocabulary). */
function parsePrefer(header: string | undefined): { code?: number; delay?: number } {
  const preferences: { code?: number; delay?: number } = {}
  for (const part of (header ?? '').split(/[,;]/)) {
    const match = /^\s*(code|delay)\s*=\s*"?(\d{1,6})"?\s*$/i.exec(part)
    if (match?.[1] && match[2]) preferences[match[1].toLowerCase() as 'code' | 'delay'] = Number(match[2])
  }
  return preferences
}

/**
 * Waits as `Prefer: delay` and `--latency` ask: only for an authenticated caller (CONTRACT §3 order).
 * Resolves to whether it waited.
 */
export async function delayAsAsked(prefer: string | undefined, conditions: SimulatedConditions): Promise<boolean> {
  if (prefer === undefined && !conditions.latency) return false
  const { delay } = parsePrefer(prefer)
  const random = conditions.random ?? Math.random
  const latency = conditions.latency
  const wait = delay ?? (latency ? latency.min + random() * (latency.max - latency.min) : 0)
  // The global timer: the engine runs in browsers and workers as well as Node.
  if (!(wait > 0)) return false
  await new Promise((resolve) => setTimeout(resolve, Math.min(wait, MAX_DELAY_MS)))
  return true
}

/** After routing: `--fail-rate` and `Prefer: code=NNN` answer an error instead of the operation. */
export function failAsAsked(prefer: string | undefined, conditions: SimulatedConditions, documented: number[]): void {
  const random = conditions.random ?? Math.random
  if (conditions.failRate && random() < conditions.failRate) {
    throw new AppError('SERVICE_UNAVAILABLE', 'Simulated failure (--fail-rate). Try again shortly.', { retryAfter: 1 })
  }
  if (prefer === undefined) return
  const { code } = parsePrefer(prefer)
  if (code === undefined) return
  const errorCode = documented.includes(code) ? codeForStatus(code) : undefined
  if (!errorCode) {
    throw new AppError(
      'VALIDATION_FAILED',
      `Prefer: code=${code} is not a documented error of this operation (documented: ${documented.join(', ') || 'none'}).`,
      { errors: [{ in: 'header', path: '/prefer', message: `code must be one of ${documented.join(', ')}` }] },
    )
  }
  throw new AppError(
    errorCode,
    `Returned because the request asked for it with Prefer: code=${code}.`,
    forcedDetails(code),
  )
}

function forcedDetails(status: number): ErrorDetails {
  if (status === 400) return { errors: [{ in: 'header', path: '/prefer', message: 'asked for with Prefer: code=400' }] }
  if (status === 401) return { invalidToken: true }
  if (status === 429 || status === 503) return { retryAfter: 1 }
  // A 500 asked for is no unexpected error: the engine does not report it as one.
  if (status === 500) return { simulated: true }
  return {}
}
