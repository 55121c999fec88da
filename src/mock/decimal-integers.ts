import type { FastifyRequest, preValidationAsyncHookHandler } from 'fastify'
import type { OpenAPIV3_1 } from 'openapi-types'
import { AppError } from '../errors.js'

const DECIMAL_INTEGER = /^-?\d+$/

/**
 * CONTRACT §4: values of the wrong type are a 400. Ajv's coercion would read `0x10`, `1e1`, `+5` or
 * ` 5` as integers; an integer query parameter must be written in decimal digits, so those are refused
 * here, before the schema is checked. Undefined when the operation has no integer query parameter.
 */
export function checkDecimalIntegers(
  parameters: OpenAPIV3_1.ParameterObject[],
): preValidationAsyncHookHandler | undefined {
  const names = parameters
    .filter(
      (parameter) =>
        parameter.in === 'query' && (parameter.schema as { type?: unknown } | undefined)?.type === 'integer',
    )
    .map((parameter) => parameter.name)
  if (names.length === 0) return undefined
  return async (request: FastifyRequest) => {
    const query = request.query as Record<string, unknown>
    for (const name of names) {
      const value = query[name]
      if (typeof value === 'string' && !DECIMAL_INTEGER.test(value)) {
        const message = 'must be an integer written in decimal digits'
        throw new AppError('VALIDATION_FAILED', `The request is invalid: query parameter /${name} ${message}.`, {
          errors: [{ in: 'query', path: `/${name}`, message }],
        })
      }
    }
  }
}
