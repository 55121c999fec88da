import type { ValidateFunction } from 'ajv/dist/2020.js'
import type { OpenAPIV3_1 } from 'openapi-types'
import { createOperationMatcher, type OperationMatcher } from '../../src/contract/client/match-operation.js'
import { createAjv } from '../../src/spec/create-ajv.js'
import { loadSpec } from '../../src/spec/load-spec.js'
import { listOperations } from '../../src/spec/operations.js'
import type { ApiExchange } from './api-exchange.js'

export interface ConformanceOptions {
  /** `false`: do not check this response (a CORS preflight, a deliberately undocumented answer). */
  conform?: boolean
  /**
   * Check against this shared response of `components.responses` (`BadRequest`, …) instead of the
   * operation's: for answers the mock gives outside what the operation documents.
   */
  conformTo?: string
}

/** Shared responses by status: what an undocumented path or method answers (CONTRACT §4, §5). */
export const SHARED_RESPONSES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  429: 'TooManyRequests',
  503: 'ServiceUnavailable',
}

interface Conformance {
  operationOf: OperationMatcher
  responses: Record<string, OpenAPIV3_1.ResponseObject>
  compile(schema: object): ValidateFunction
}

// The document never changes during a run: it is loaded and compiled once per test file.
let loading: Promise<Conformance> | undefined

function loadConformance(): Promise<Conformance> {
  loading ??= loadSpec().then(({ dereferenced }) => {
    const ajv = createAjv()
    const compiled = new WeakMap<object, ValidateFunction>()
    return {
      operationOf: createOperationMatcher(listOperations(dereferenced)),
      responses: (dereferenced.components?.responses ?? {}) as Record<string, OpenAPIV3_1.ResponseObject>,
      compile(schema) {
        const known = compiled.get(schema)
        if (known) return known
        const validate = ajv.compile(schema)
        compiled.set(schema, validate)
        return validate
      },
    }
  })
  return loading
}

/**
 * Asserts that a response of the users API (a path under /api) is what the document says the
 * operation answers with that status: the status is documented, the media type is, the body
 * validates against the schema (Ajv 2020, formats on), and the required headers are present and
 * valid. A path or method the document does not have is checked against the shared response of
 * its status (`NotFound`, `MethodNotAllowed`, …). Other paths (/__mock/, /docs) and CORS preflights
 * are not the users API and pass. HEAD answers are checked as GET's, without a body.
 *
 * @throws Error naming the operation, the status and the Ajv errors.
 */
export async function assertConforms(exchange: ApiExchange, options: ConformanceOptions = {}): Promise<void> {
  const path = new URL(exchange.request.url, 'http://mock.invalid').pathname
  const method = exchange.request.method.toLowerCase()
  if (options.conform === false || method === 'options' || !(path === '/api' || path.startsWith('/api/'))) return
  const conformance = await loadConformance()
  const { name, response } = findDocumentedResponse(conformance, exchange, path, options.conformTo)
  const where = `${exchange.request.method} ${exchange.request.url} → ${exchange.status} (${name})`
  checkHeaders(conformance, response, exchange, where)
  if (method === 'head') return
  checkBody(conformance, response, exchange, where)
}

function findDocumentedResponse(
  conformance: Conformance,
  exchange: ApiExchange,
  path: string,
  conformTo: string | undefined,
): { name: string; response: OpenAPIV3_1.ResponseObject } {
  if (conformTo !== undefined) return sharedResponse(conformance, conformTo)
  const operation = conformance.operationOf(exchange.request.method, path)
  if (!operation) {
    const shared = SHARED_RESPONSES[exchange.status]
    if (shared === undefined)
      throw new Error(
        `${exchange.request.method} ${path} is not in the document, and ${exchange.status} is no shared response.`,
      )
    return sharedResponse(conformance, shared)
  }
  const status = String(exchange.status)
  const response =
    operation.responses[status] ?? operation.responses[`${status[0]}XX`] ?? operation.responses['default']
  if (!response) {
    const documented = Object.keys(operation.responses).join(', ')
    throw new Error(
      `${operation.operationId} does not document ${status} (it documents ${documented}).\n${describe(exchange)}`,
    )
  }
  return { name: `${operation.operationId} ${status}`, response }
}

function sharedResponse(
  conformance: Conformance,
  name: string,
): { name: string; response: OpenAPIV3_1.ResponseObject } {
  const response = conformance.responses[name]
  if (!response) throw new Error(`The document has no components.responses.${name}.`)
  return { name: `components.responses.${name}`, response }
}

function checkHeaders(
  conformance: Conformance,
  response: OpenAPIV3_1.ResponseObject,
  exchange: ApiExchange,
  where: string,
): void {
  for (const [name, header] of Object.entries(response.headers ?? {}) as Array<[string, OpenAPIV3_1.HeaderObject]>) {
    const value = exchange.headers[name.toLowerCase()]
    if (value === undefined) {
      if (header.required) throw new Error(`${where}: the documented header ${name} is missing.\n${describe(exchange)}`)
      continue
    }
    const validate = header.schema ? conformance.compile(header.schema) : undefined
    if (validate && !validate(value)) {
      throw new Error(`${where}: the header ${name}: ${value} does not conform:\n${formatErrors(validate)}`)
    }
  }
}

function checkBody(
  conformance: Conformance,
  response: OpenAPIV3_1.ResponseObject,
  exchange: ApiExchange,
  where: string,
): void {
  if (!response.content) {
    if (exchange.text !== '')
      throw new Error(`${where}: the document says no body, the mock sent one.\n${describe(exchange)}`)
    return
  }
  const mediaType = exchange.headers['content-type']?.split(';')[0]?.trim().toLowerCase() ?? '(none)'
  const content = response.content[mediaType]
  if (!content) {
    const documented = Object.keys(response.content).join(', ')
    throw new Error(
      `${where}: Content-Type ${mediaType} is not documented (documented: ${documented}).\n${describe(exchange)}`,
    )
  }
  if (!content.schema) return
  const validate = conformance.compile(content.schema)
  if (!validate(exchange.body)) {
    throw new Error(
      `${where}: the body does not conform to the document:\n${formatErrors(validate)}\n${describe(exchange)}`,
    )
  }
}

function formatErrors(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .map(
      (error) =>
        `  ${error.instancePath || '(root)'} ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`,
    )
    .join('\n')
}

function describe(exchange: ApiExchange): string {
  const text = exchange.text.length > 500 ? `${exchange.text.slice(0, 500)}…` : exchange.text
  return `Received: ${exchange.status} ${exchange.headers['content-type'] ?? ''}\n${text}`
}
