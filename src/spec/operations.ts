import type { OpenAPIV3_1 } from 'openapi-types'

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const
export type HttpMethod = (typeof HTTP_METHODS)[number]

export type ContractLayer = 'core' | 'profile'

/** One operation of the document, dereferenced, with what routes and checks need of it. */
export interface Operation {
  operationId: string
  method: HttpMethod
  /** As the document writes it: `/api/users/{id}`. */
  path: string
  /** `x-contract` of the operation; `profile` when unmarked. */
  layer: ContractLayer
  parameters: OpenAPIV3_1.ParameterObject[]
  requestBody?: OpenAPIV3_1.RequestBodyObject
  responses: Record<string, OpenAPIV3_1.ResponseObject>
  /** Whether a 2xx is documented: PATCH/DELETE on /api/users/me only answer 405 (CONTRACT §4). */
  succeeds: boolean
}

/** Every operation of a dereferenced document, in document order. */
export function listOperations(document: OpenAPIV3_1.Document): Operation[] {
  const operations: Operation[] = []
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!item) continue
    for (const method of HTTP_METHODS) {
      const operation = item[method]
      if (!operation) continue
      operations.push(toOperation(path, method, item, operation))
    }
  }
  return operations
}

function toOperation(
  path: string,
  method: HttpMethod,
  item: OpenAPIV3_1.PathItemObject,
  operation: OpenAPIV3_1.OperationObject,
): Operation {
  if (!operation.operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId.`)
  const responses = (operation.responses ?? {}) as Record<string, OpenAPIV3_1.ResponseObject>
  return {
    operationId: operation.operationId,
    method,
    path,
    layer: contractLayer(operation),
    parameters: mergeParameters(item.parameters, operation.parameters),
    requestBody: operation.requestBody as OpenAPIV3_1.RequestBodyObject | undefined,
    responses,
    succeeds: Object.keys(responses).some((status) => /^2/.test(status)),
  }
}

/** Operation-level parameters override path-level ones of the same name and location. */
function mergeParameters(...lists: Array<unknown[] | undefined>): OpenAPIV3_1.ParameterObject[] {
  const merged = new Map<string, OpenAPIV3_1.ParameterObject>()
  for (const list of lists) {
    for (const parameter of (list ?? []) as OpenAPIV3_1.ParameterObject[]) {
      merged.set(`${parameter.in}:${parameter.name}`, parameter)
    }
  }
  return [...merged.values()]
}

function contractLayer(element: object): ContractLayer {
  return (element as { 'x-contract'?: unknown })['x-contract'] === 'core' ? 'core' : 'profile'
}
