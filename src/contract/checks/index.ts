import type { ResponseCheck } from '../client/check-exchange.js'
import { allowOn405 } from './allow-on-405.js'
import { bodyMatchesSchema } from './body-matches-schema.js'
import { contentTypeIsDocumented } from './content-type-is-documented.js'
import { errorsAreProblemDetails } from './errors-are-problem-details.js'
import { noInternalErrors } from './no-internal-errors.js'
import { noStackTraces } from './no-stack-traces.js'
import { problemCodeMatchesStatus } from './problem-code-matches-status.js'
import { requiredHeadersArePresent } from './required-headers-are-present.js'
import { retryAfterOn429 } from './retry-after-on-429.js'
import { statusIsDocumented } from './status-is-documented.js'
import { successIsADataEnvelope } from './success-is-a-data-envelope.js'
import { wwwAuthenticateOn401 } from './www-authenticate-on-401.js'

/** Every response-level check, core first: the client runs them all on every exchange. */
export const RESPONSE_CHECKS: ResponseCheck[] = [
  // core: what every implementation of the users API keeps
  statusIsDocumented,
  contentTypeIsDocumented,
  bodyMatchesSchema,
  requiredHeadersArePresent,
  wwwAuthenticateOn401,
  allowOn405,
  successIsADataEnvelope,
  // profile: this project's choices (`verify --only core` skips them)
  errorsAreProblemDetails,
  problemCodeMatchesStatus,
  retryAfterOn429,
  noStackTraces,
  noInternalErrors,
]
