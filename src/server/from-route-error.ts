import { toAppError } from '../engine/problems.js'
import { SEND_AS_JSON } from '../engine/read-json-body.js'
import { invalid } from '../engine/validation-issues.js'
import { AppError, isAppError } from '../errors.js'

interface FastifyLikeError {
  code?: string
  statusCode?: number
  message?: string
}

/**
 * Whatever the server's own routes raise (our AppError, Fastify's body-size, content-type and parser
 * errors) as one AppError. Anything unknown becomes INTERNAL, whose cause is logged and never sent.
 */
export function fromRouteError(error: unknown): AppError {
  if (isAppError(error)) return error
  const fastifyError = (error ?? {}) as FastifyLikeError
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', 'The body is over the limit of this route.')
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', SEND_AS_JSON)
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return invalid('body', '', 'the body is empty; send a JSON object')
    case 'FST_ERR_BAD_URL':
      return new AppError('VALIDATION_FAILED', 'The request is invalid: the URL is not validly percent-encoded.', {
        errors: [{ in: 'path', path: '', message: 'is not validly percent-encoded' }],
      })
  }
  if (error instanceof SyntaxError || fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return invalid('body', '', `the body is not valid JSON (${fastifyError.message ?? 'syntax error'})`)
  }
  const status = fastifyError.statusCode ?? 500
  if (status >= 400 && status < 500) return invalid('body', '', fastifyError.message ?? 'the request is malformed')
  return toAppError(error)
}
