import { parseBoundedJson } from '../../text/json-depth.js'
import { dataOf, operationOf, statusOf, type ObservedExchange } from '../observed-exchange.js'
import { defineRule, found } from './define-rule.js'

/** The keys "give at least one of name, role, status" may point at when the body has none of them. */
const PATCH_KEYS = ['name', 'role', 'status']

export const problemsPointIntoTheBody = defineRule({
  name: 'problems-point-into-the-body',
  rule: 'An issue of a 400 about the body points into the body the client sent, each ~ and / of a key escaped as RFC 6901 says (docs/contract.md §5)',
  observe(observed) {
    if (statusOf(observed) !== 400 || operationOf(observed) !== 'updateUser') return []
    const body = sentJson(observed)
    if (body === undefined) return []
    for (const pointer of bodyPointers(observed)) {
      const tokens = readPointer(pointer)
      if (tokens !== undefined && (resolves(body, tokens) || namesAMissingPatchKey(body, tokens))) continue
      const key = unescapedKey(body, pointer)
      if (key !== undefined)
        return found(
          ['§5.errors.escaped', '§5.errors.pointer'],
          `Received: an issue "in": "body" at ${JSON.stringify(pointer)}, for the key ${JSON.stringify(key)} of the body sent\nExpected: ${JSON.stringify(escapePointer(key))}: RFC 6901 escapes ~ as ~0 and / as ~1 (read as a pointer, ${JSON.stringify(pointer)} ${tokens === undefined ? 'is none' : 'names a place the body does not have'})`,
        )
      return found(
        '§5.errors.pointer',
        tokens === undefined
          ? `Received: an issue "in": "body" at ${JSON.stringify(pointer)}, which is no JSON pointer\nExpected: "" or /key, each ~ of a key written ~0 and each / written ~1 (RFC 6901)`
          : `Received: an issue "in": "body" at ${JSON.stringify(pointer)}, a place the body sent does not have (${describeKeys(body)})\nExpected: a pointer into the body ("" for the whole of it)`,
      )
    }
    return []
  },
})

/** The body the PATCH sent, parsed; undefined when it is not JSON text (then "" is all there is to name). */
function sentJson(observed: ObservedExchange): { value: unknown } | undefined {
  const { body, bodyEncoding } = observed.exchange.request
  if (body === undefined || bodyEncoding !== undefined) return undefined
  try {
    return { value: parseBoundedJson(body) }
  } catch {
    return undefined
  }
}

/** The `path` of every issue of the answer that is "in": "body" and a string. */
function bodyPointers(observed: ObservedExchange): string[] {
  const errors = (observed.exchange.response.body as { errors?: unknown } | undefined)?.errors
  if (!Array.isArray(errors) || dataOf(observed) !== undefined) return []
  return errors.flatMap((issue: unknown) => {
    const { in: part, path } = (issue ?? {}) as { in?: unknown; path?: unknown }
    return part === 'body' && typeof path === 'string' ? [path] : []
  })
}

/** RFC 6901: the reference tokens of a pointer, or undefined when it is none ("~" not followed by 0 or 1). */
function readPointer(pointer: string): string[] | undefined {
  if (pointer === '') return []
  if (!pointer.startsWith('/') || /~(?![01])/.test(pointer)) return undefined
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'))
}

function resolves({ value }: { value: unknown }, tokens: string[]): boolean {
  let place = value
  for (const token of tokens) {
    if (typeof place !== 'object' || place === null || !Object.hasOwn(place, token)) return false
    place = (place as Record<string, unknown>)[token]
  }
  return true
}

/** "Give at least one of name, role, status" may point at one of them when the body has none. */
function namesAMissingPatchKey({ value }: { value: unknown }, tokens: string[]): boolean {
  if (tokens.length !== 1 || !PATCH_KEYS.includes(tokens[0] as string)) return false
  return typeof value === 'object' && value !== null && PATCH_KEYS.every((key) => !Object.hasOwn(value, key))
}

/** The key of the body that the pointer spells without RFC 6901's escapes, if one does. */
function unescapedKey({ value }: { value: unknown }, pointer: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  return Object.keys(value).find((key) => /[~/]/.test(key) && `/${key}` === pointer)
}

function escapePointer(key: string): string {
  return `/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`
}

function describeKeys({ value }: { value: unknown }): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'it is not an object'
  const keys = Object.keys(value)
  return keys.length === 0 ? 'it has no key' : `its keys: ${keys.map((key) => JSON.stringify(key)).join(', ')}`
}
