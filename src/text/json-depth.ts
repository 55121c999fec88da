/**
 * Arrays and objects nested deeper than this are refused before parsing (JSON.parse, Ajv and the checks
 * recurse): the users API's JSON nests 3 levels at most.
 */
export const MAX_JSON_DEPTH = 64

/**
 * JSON values (counted as arrays, objects and the commas between their items and members) past which
 * text is refused before parsing: ten times a page of 100 users. What an answer costs is what it holds
 * once parsed, not its bytes: 1 MiB of `[{},{},…]` is 350,000 objects, each an error of every check that
 * validates it (verify took 2.9 GiB and 186 s, Schemathesis 6.9 GiB).
 */
export const MAX_JSON_VALUES = 10_000

/** JSON text nested deeper than the kit parses: refused before JSON.parse, so that nothing downstream recurses into it. */
export class JsonTooDeep extends Error {
  override readonly name = 'JsonTooDeep'

  constructor(readonly limit: number) {
    super(`JSON nested deeper than ${limit} levels of arrays and objects; the kit does not parse it`)
  }
}

/** JSON text holding more values than the kit parses: refused before JSON.parse, so that nothing is built of it. */
export class JsonTooLarge extends Error {
  override readonly name = 'JsonTooLarge'

  constructor(readonly limit: number) {
    super(`JSON of more than ${limit} values (arrays, objects and their items); the kit does not parse it`)
  }
}

/** What JSON text may hold to be parsed. */
export interface JsonLimits {
  depth: number
  values: number
}

/**
 * The first limit JSON text passes, in one pass and without parsing it: `depth` (arrays and objects
 * nested deeper) or `values` (arrays, objects and the commas between items and members, counted
 * together), else undefined. Brackets and commas inside strings do not count; the text need not be
 * valid JSON (JSON.parse says what else is wrong with it).
 *
 * @example
 * exceedsJsonLimits('[[1]]', { depth: 1, values: 100 }) // 'depth'
 * exceedsJsonLimits('[{},{},{}]', { depth: 8, values: 5 }) // 'values'
 */
export function exceedsJsonLimits(text: string, limits: JsonLimits): 'depth' | 'values' | undefined {
  let depth = 0
  let values = 0
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
      values += 1
      if (depth > limits.depth) return 'depth'
      if (values > limits.values) return 'values'
    } else if (code === 0x5d || code === 0x7d) depth -= 1
    else if (code === 0x2c) {
      values += 1
      if (values > limits.values) return 'values'
    }
  }
  return undefined
}

/**
 * Whether JSON text nests arrays and objects deeper than `limit` (however many values it holds).
 *
 * @example
 * exceedsJsonDepth('[[1]]', 1) // true
 * exceedsJsonDepth('{"a":"[[["}', 1) // false
 */
export function exceedsJsonDepth(text: string, limit: number): boolean {
  return exceedsJsonLimits(text, { depth: limit, values: Number.POSITIVE_INFINITY }) === 'depth'
}

/**
 * JSON.parse for text a server sent: refused when it nests deeper or holds more values than the kit
 * parses. JSON.parse itself copes, but the checks, Ajv and vitest's error reports walk the value (a stack
 * overflow took whole test files out of the totals) and report on every part of it.
 *
 * @throws JsonTooDeep, JsonTooLarge, or JSON.parse's SyntaxError.
 * @example
 * parseBoundedJson('{"data":[]}') // { data: [] }
 */
export function parseBoundedJson(text: string, limits: JsonLimits = DEFAULT_LIMITS): unknown {
  const passed = exceedsJsonLimits(text, limits)
  if (passed === 'depth') throw new JsonTooDeep(limits.depth)
  if (passed === 'values') throw new JsonTooLarge(limits.values)
  return JSON.parse(text)
}

const DEFAULT_LIMITS: JsonLimits = { depth: MAX_JSON_DEPTH, values: MAX_JSON_VALUES }
