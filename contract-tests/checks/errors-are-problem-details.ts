import { mediaTypeOf } from '../../src/contract/exchange.js'
import { defineCheck } from './define-check.js'

export const errorsAreProblemDetails = defineCheck({
  name: 'errors-are-problem-details',
  rule: 'Every 4xx/5xx response is application/problem+json whose status equals the HTTP status (CONTRACT §5)',
  layer: 'profile',
  verify({ response }) {
    if (response.status < 400) return undefined
    const mediaType = mediaTypeOf(response)
    if (mediaType !== 'application/problem+json') {
      return `Received: ${mediaType ?? 'no Content-Type'}\nDocumented: application/problem+json`
    }
    const status = (response.body as { status?: unknown } | undefined)?.status
    if (status !== response.status)
      return `Received: status ${JSON.stringify(status)} in the body\nDocumented: ${response.status}`
    return undefined
  },
})
