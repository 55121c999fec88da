import { AppError, isAppError, type ValidationIssue } from '../errors.js'
import { toValidationIssue } from '../spec/schema-issues.js'

interface AjvIssue {
  instancePath: string
  keyword: string
  message?: string
  params: Record<string, unknown>
}

interface FastifyLikeError {
  code?: string
  statusCode?: number
  message?: string
  validation?: AjvIssue[]
  validationContext?: string
}

const PARTS: Record<string, ValidationIssue['in']> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
}

const PART_NAMES: Record<ValidationIssue['in'], string> = {
  body: 'body',
  query: 'query parameter',
  path: 'path parameter',
  header: 'header',
}

/**
 * Whatever was thrown (our AppError, Fastify's validation, body-size, content-type and parser errors)
 * as one AppError. Anything unknown becomes INTERNAL, whose cause is logged and never sent.
 */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error
  const fastifyError = (error ?? {}) as FastifyLikeError
  if (Array.isArray(fastifyError.validation))
    return fromValidation(fastifyError.validation, fastifyError.validationContext)
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', 'The body is over the limit of 16384 bytes (16 KiB).')
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return unsupportedMediaType()
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return invalidBody('the body is empty; send a JSON object')
    case 'FST_ERR_BAD_URL':
      return invalid('path', '', 'the URL is not validly percent-encoded')
    // Its message quotes the whole path (thousands of characters), and it is no body error.
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return invalid('path', '', 'a path segment is too long to be an id')
  }
  if (error instanceof SyntaxError || fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return invalidBody(`the body is not valid JSON (${fastifyError.message ?? 'syntax error'})`)
  }
  const status = fastifyError.statusCode ?? 500
  // Any other client error of Fastify's (a bad URL, a bad Content-Length) is a bad request.
  if (status >= 400 && status < 500) return invalidBody(fastifyError.message ?? 'the request is malformed')
  return new AppError('INTERNAL', 'Something went wrong on our side. It is logged; the request changed nothing.', {
    cause: error,
  })
}

export function unsupportedMediaType(): AppError {
  return new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    'Send the body as JSON, with the header Content-Type: application/json.',
  )
}

function invalidBody(message: string): AppError {
  return invalid('body', '', message)
}

function invalid(part: ValidationIssue['in'], path: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', `The request is invalid: ${message}.`, {
    errors: [{ in: part, path, message }],
  })
}

function fromValidation(issues: AjvIssue[], context = 'body'): AppError {
  const part = PARTS[context] ?? 'body'
  const errors = issues.map((issue) => toIssue(issue, part))
  const first = errors[0]
  const where = first ? `${PART_NAMES[part]} ${first.path || '(whole)'}` : PART_NAMES[part]
  return new AppError('VALIDATION_FAILED', `The request is invalid: ${where} ${first?.message ?? 'is invalid'}.`, {
    errors,
  })
}

/** The name's pattern (docs/decisions/0002-name-pattern.md) says nothing to a person; this does. */
function toIssue(issue: AjvIssue, part: ValidationIssue['in']): ValidationIssue {
  if (issue.keyword === 'pattern' && issue.instancePath === '/name') {
    return { in: part, path: issue.instancePath, message: 'must be 1 to 100 characters once trimmed' }
  }
  return toValidationIssue(issue, part)
}
