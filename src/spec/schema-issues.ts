import type { ErrorObject } from 'ajv/dist/2020.js'
import type { ValidationIssue } from '../errors.js'

/**
 * An Ajv error as CONTRACT §5's `{ in, path, message }`. The pointer names the offending key itself
 * (an unknown or missing property), not the object that holds it.
 */
export function toValidationIssue(
  error: Pick<ErrorObject, 'instancePath' | 'keyword' | 'message' | 'params'>,
  part: ValidationIssue['in'],
): ValidationIssue {
  const params = error.params as Record<string, unknown>
  const { keyword, instancePath } = error
  if (keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    return {
      in: part,
      path: `${instancePath}/${escapePointer(params.additionalProperty)}`,
      message: 'is not a known property (check its spelling)',
    }
  }
  if (keyword === 'required' && typeof params.missingProperty === 'string') {
    return { in: part, path: `${instancePath}/${escapePointer(params.missingProperty)}`, message: 'is required' }
  }
  if (keyword === 'enum' && Array.isArray(params.allowedValues)) {
    return { in: part, path: instancePath, message: `must be one of ${params.allowedValues.join(', ')}` }
  }
  return { in: part, path: instancePath, message: error.message ?? `fails ${keyword}` }
}

function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1')
}
