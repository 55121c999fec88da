import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { OpenAPIV3_1 } from 'openapi-types'
import { AppError } from '../errors.js'

/** The document shipped with the kit: `openapi/users.yaml`. */
export const DEFAULT_SPEC_PATH = fileURLToPath(new URL('../../openapi/users.yaml', import.meta.url))

export interface LoadedSpec {
  /** Where it was read from. */
  path: string
  /** As written (with its `$ref`s): what `/openapi.json` serves. */
  document: OpenAPIV3_1.Document
  /** Every `$ref` resolved: what routes, validators and checks read. */
  dereferenced: OpenAPIV3_1.Document
}

/**
 * Reads an OpenAPI 3.1 document (YAML or JSON), validates it against the OpenAPI schema and
 * dereferences it. A bad document is an AppError whose message says what is wrong and where. The kit's
 * own document was read, validated and dereferenced by the build (scripts/generate-artifacts.ts): it is
 * only parsed (~1 ms, where importing the dereferencing library and running it take ~100 ms).
 *
 * @example
 * const spec = await loadSpec() // openapi/users.yaml
 */
export async function loadSpec(path: string = DEFAULT_SPEC_PATH): Promise<LoadedSpec> {
  if (path !== DEFAULT_SPEC_PATH) return readSpecFile(path)
  const { DEFAULT_DEREFERENCED_JSON, DEFAULT_DOCUMENT_JSON } = await import('./generated/default-document.js')
  const document = JSON.parse(DEFAULT_DOCUMENT_JSON) as OpenAPIV3_1.Document
  const dereferenced = JSON.parse(DEFAULT_DEREFERENCED_JSON) as OpenAPIV3_1.Document
  return { path, document, dereferenced }
}

/**
 * `loadSpec` from the file itself, whichever it is: what the build reads openapi/users.yaml with.
 *
 * @example
 * const spec = await readSpecFile(DEFAULT_SPEC_PATH)
 */
export async function readSpecFile(path: string): Promise<LoadedSpec> {
  const text = await readText(path)
  const document = await parseDocument(text, path)
  // Imported here, not at the top: a start with the kit's own document needs neither.
  const { compileErrors, dereference, validate } = await import('@readme/openapi-parser')
  const result = await validate(structuredClone(document) as never)
  if (!result.valid) {
    throw new AppError('INTERNAL', `${path} is not a valid OpenAPI document.\n${compileErrors(result)}`)
  }
  const dereferenced = (await dereference(structuredClone(document) as never)) as OpenAPIV3_1.Document
  return { path, document, dereferenced }
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new AppError('INTERNAL', `Cannot read the OpenAPI document ${path}: ${reason}`)
  }
}

async function parseDocument(text: string, path: string): Promise<OpenAPIV3_1.Document> {
  const { parse } = await import('yaml')
  let value: unknown
  try {
    value = parse(text)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new AppError('INTERNAL', `${path} is neither YAML nor JSON: ${reason}`)
  }
  const version = (value as { openapi?: unknown } | null)?.openapi
  if (typeof version !== 'string' || !version.startsWith('3.1.')) {
    throw new AppError('INTERNAL', `${path} must be an OpenAPI 3.1 document (found openapi: ${String(version)}).`)
  }
  return value as OpenAPIV3_1.Document
}
