import { isInMediaRange, isJsonMediaType, mediaTypeOf } from '../client/exchange.js'
import { documentedResponse } from '../client/response-schemas.js'
import { describeValue } from './describe-value.js'
import { defineCheck } from './define-check.js'
import { isHead } from '../../http/methods.js'

export const contentTypeIsDocumented = defineCheck({
  name: 'content-type-is-documented',
  rule: 'The body is of a media type the document gives the response (none when it documents none), and JSON parses',
  layer: 'core',
  covers: [],
  verify({ request, response, operation }, { layer }) {
    const mediaType = mediaTypeOf(response)
    if (isJsonMediaType(mediaType) && response.body === undefined && response.text !== '') {
      return `Received: a body that is not JSON: ${describeValue(response.text)}\nDocumented: ${mediaType} (JSON)`
    }
    const documented = operation && documentedResponse(operation, response.status)
    // HEAD has no body; an undocumented status is status-is-documented's finding.
    if (!operation || !documented || isHead(request.method)) return undefined
    const where = `${operation.operationId} ${response.status}`
    const mediaTypes = Object.keys(documented.content ?? {})
    if (mediaTypes.length === 0) {
      if (response.text === '') return undefined
      return `Received: a body (${mediaType ?? 'no Content-Type'}): ${describeValue(response.text)}\nDocumented: no body for ${where}`
    }
    // CONTRACT §5: the media type of errors (problem+json) is profile.
    if (layer === 'core' && (response.status < 200 || response.status > 299)) return undefined
    if (mediaType !== undefined && mediaTypes.some((range) => isInMediaRange(mediaType, range))) return undefined
    const received = mediaType ?? `no Content-Type${response.text === '' ? ' and no body' : ''}`
    return `Received: ${received} for ${where}\nDocumented: ${mediaTypes.join(', ')}`
  },
})
