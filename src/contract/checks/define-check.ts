import type { ResponseCheck } from '../client/check-exchange.js'

/** A response-level check: a pure function over one exchange, named after the rule it enforces. */
export function defineCheck(check: ResponseCheck): ResponseCheck {
  return check
}
