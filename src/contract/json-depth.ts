import { MAX_JSON_DEPTH } from './response-limits.js'

/** JSON text nested deeper than the kit parses: refused before JSON.parse, so that nothing downstream recurses into it. */
export class JsonTooDeep extends Error {
  override readonly name = 'JsonTooDeep'

  constructor(readonly limit: number) {
    super(`JSON nested deeper than ${limit} levels of arrays and objects; the kit does not parse it`)
  }
}

/**
 * Whether JSON text nests arrays and objects deeper than `limit`. Brackets inside strings do not count;
 * the text need not be valid JSON (JSON.parse says what else is wrong with it).
 *
 * @example
 * exceedsJsonDepth('[[1]]', 1) // true
 * exceedsJsonDepth('{"a":"[[["}', 1) // false
 */
export function exceedsJsonDepth(text: string, limit: number): boolean {
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index)
    if (inString) {
      if (code === 0x5c)
        index += 1 // a backslash escapes the next character, a quote included
      else if (code === 0x22) inString = false
    } else if (code === 0x22) inString = true
    else if (code === 0x5b || code === 0x7b) {
      depth += 1
      if (depth > limit) return true
    } else if (code === 0x5d || code === 0x7d) depth -= 1
  }
  return false
}

/**
 * JSON.parse for text a server sent: refused when it nests deeper than the limit. JSON.parse itself
 * copes, but the checks, Ajv and vitest's error reports walk the value recursively, and a stack
 * overflow there took whole test files out of the totals.
 *
 * @throws JsonTooDeep, or JSON.parse's SyntaxError.
 * @example
 * parseBoundedJson('{"data":[]}') // { data: [] }
 */
export function parseBoundedJson(text: string, limit = MAX_JSON_DEPTH): unknown {
  if (exceedsJsonDepth(text, limit)) throw new JsonTooDeep(limit)
  return JSON.parse(text)
}
