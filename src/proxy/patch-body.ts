import { parseBoundedJson } from '../text/json-depth.js'
import type { ObservedExchange } from './observed-exchange.js'

/**
 * The JSON object a PATCH sent, or undefined for any other body (the request judge has refused those
 * as the client's mistake before a rule reads them).
 *
 * @example
 * readPatchBody(observedRename) // { name: 'Ada' }
 */
export function readPatchBody(observed: ObservedExchange): Record<string, unknown> | undefined {
  const text = observed.exchange.request.body
  if (text === undefined) return undefined
  try {
    const value = parseBoundedJson(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}
