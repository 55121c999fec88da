import { hasNoBodyByHttp, mediaTypeOf } from '../client/exchange.js'
import { describeValue } from './describe-value.js'
import { defineCheck } from './define-check.js'

export const errorsAreProblemDetails = defineCheck({
  name: 'errors-are-problem-details',
  rule: 'Every 4xx/5xx response is application/problem+json whose status equals the HTTP status (docs/contract.md §5)',
  layer: 'profile',
  covers: ['§5.problem', '§5.problem.status'],
  verify(exchange) {
    const { response } = exchange
    // A HEAD answer has no body to judge (RFC 9110 §9.3.2).
    if (response.status < 400 || hasNoBodyByHttp(exchange)) return undefined
    const mediaType = mediaTypeOf(response)
    if (mediaType !== 'application/problem+json') {
      return `Received: ${mediaType ?? 'no Content-Type'}\nDocumented: application/problem+json`
    }
    const body = response.body
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return `Received: ${describeValue(body === undefined ? response.text : body)}\nDocumented: a problem object (RFC 9457)`
    }
    const status = (body as { status?: unknown }).status
    if (status !== response.status)
      return `Received: status ${describeValue(status)} in the body\nDocumented: ${response.status}`
    return undefined
  },
})
