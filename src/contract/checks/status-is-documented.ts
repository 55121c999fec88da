import { pathnameOf } from '../client/exchange.js'
import { documentedResponse } from '../client/response-schemas.js'
import { defineCheck } from './define-check.js'
import { METHODS_OF_EVERY_RESOURCE } from '../../http/methods.js'

/**
 * CONTRACT §3 order and §4 "Other routes": a request the document has no operation for is refused by
 * authentication (401), routing (404) or method (405), before anything else could answer.
 */
const UNDOCUMENTED_ROUTE_STATUSES = [401, 404, 405]

export const statusIsDocumented = defineCheck({
  name: 'status-is-documented',
  rule: 'The status is one the document gives the operation; a route it does not have answers 401, 404 or 405',
  layer: 'core',
  covers: [],
  verify({ request, response, operation }) {
    if (operation) {
      if (documentedResponse(operation, response.status)) return undefined
      return (
        `Received: ${response.status} from ${operation.operationId}\n` +
        `Documented: ${Object.keys(operation.responses).join(', ')}`
      )
    }
    const method = request.method.toUpperCase()
    if (METHODS_OF_EVERY_RESOURCE.includes(method) || UNDOCUMENTED_ROUTE_STATUSES.includes(response.status))
      return undefined
    return (
      `Received: ${response.status} from ${method} ${pathnameOf(request)}, which the document does not have\n` +
      `Documented: 401, 404 (unknown route) or 405 (other method on a documented path), docs/contract.md §3 and §4`
    )
  },
})
