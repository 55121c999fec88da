import { toAppError as toEngineAppError } from '../engine/problems.js'
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
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error
  const fastifyError = (error ?? {}) as FastifyLikeError
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', 'The body is over the limit of this route.')
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Send the body as JSON, with the header Content-Type: application/json.',
      )
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return invalidBody('the body is empty; send a JSON object')
    case 'FST_ERR_BAD_URL':
      return new AppError('VALIDATION_FAILED', 'The request is invalid: the URL is not validly percent-encoded.', {
        errors: [{ in: 'path', path: '', message: 'is not validly percent-encoded' }],
      })
  }
  if (error instanceof SyntaxError || fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return invalidBody(`the body is not valid JSON (${fastifyError.message ?? 'syntax error'})`)
  }
  const status = fastifyError.statusCode ?? 500
  if (status >= 400 && status < 500) return invalidBody(fastifyError.message ?? 'the request is malformed')
  return toEngineAppError(error)
}

function invalidBody(message: string): AppError {
  return new AppError('VALIDATION_FAILED', `The request is invalid: ${message}.`, {
    errors: [{ in: 'body', path: '', message }],
  })
}
