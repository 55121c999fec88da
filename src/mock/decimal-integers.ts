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
      if (typeof value !== 'string') continue
      if (!DECIMAL_INTEGER.test(value)) throw refused(name, 'must be an integer written in decimal digits')
      // 309 digits and more read as Infinity, which Ajv took for an integer: a 200 whose meta.page was null.
      if (!Number.isFinite(Number(value))) throw refused(name, 'is too large')
    }
  }
}

function refused(name: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', `The request is invalid: query parameter /${name} ${message}.`, {
    errors: [{ in: 'query', path: `/${name}`, message }],
  })
}
