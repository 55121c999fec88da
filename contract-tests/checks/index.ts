import type { ResponseCheck } from '../../src/contract/contract-client.js'
import { errorsAreProblemDetails } from './errors-are-problem-details.js'

/** Every response-level check: the client runs them all on every exchange. */
export const RESPONSE_CHECKS: ResponseCheck[] = [errorsAreProblemDetails]
