import fc from 'fast-check'
import type { OpenAPIV3_1 } from 'openapi-types'
import { badPercentEncoding, longOddString, oddString, percentEncode } from './odd-strings.js'

interface ParameterSchema {
  type?: string
  enum?: string[]
  minimum?: number
  maximum?: number
  maxLength?: number
}

/** `name=value` pairs, already encoded; a pair may repeat a name. */
export type QueryPairs = Array<[name: string, value: string]>

/**
 * Values the parameter's schema refuses, encoded for a URL: integers out of range or not written in
 * decimal digits, enumeration values with the wrong case or a look-alike letter, strings over
 * `maxLength` code points, and any parameter given twice (CONTRACT §4: wrong type or value, 400).
 */
export function refusedValues(parameter: OpenAPIV3_1.ParameterObject): fc.Arbitrary<QueryPairs> {
  const schema = (parameter.schema ?? {}) as ParameterSchema
  const name = percentEncode(parameter.name)
  const once = refusedValue(schema).map((value): QueryPairs => [[name, value]])
  const twice = validValue(schema).map((value): QueryPairs => [
    [name, value],
    [name, value],
  ])
  return fc.oneof({ weight: 4, arbitrary: once }, { weight: 1, arbitrary: twice })
}

function refusedValue(schema: ParameterSchema): fc.Arbitrary<string> {
  if (schema.type === 'integer') return refusedInteger(schema)
  if (schema.enum) return refusedEnumValue(schema.enum)
  if (schema.type === 'string' && schema.maxLength !== undefined) {
    return longOddString(schema.maxLength + 1).map(percentEncode)
  }
  throw new Error(`No refused values for the schema ${JSON.stringify(schema)}: teach bad-queries.ts this type.`)
}

function refusedInteger({ minimum, maximum }: ParameterSchema): fc.Arbitrary<string> {
  const outOfRange: Array<fc.Arbitrary<string>> = []
  if (minimum !== undefined) outOfRange.push(fc.integer({ min: -1e9, max: minimum - 1 }).map(String))
  // Beyond 2^53 - 1 (page's maximum), decimal strings: numbers stop being exact there.
  if (maximum !== undefined)
    outOfRange.push(fc.bigInt({ min: BigInt(maximum) + 1n, max: BigInt(maximum) + 10n ** 12n }).map(String))
  const notDecimal = fc.constantFrom(
    '',
    '1.5',
    '2.0',
    '1e1',
    '0x10',
    '+5',
    '%205',
    '5%20',
    '5abc',
    'abc',
    'NaN',
    'Infinity',
    'null',
    'true',
    '%EF%BC%95',
    '%D9%A3',
    '5%00',
  )
  // 309 digits and more: past what a double holds (Infinity).
  const tooLong = fc.integer({ min: 309, max: 2000 }).map((digits) => '9'.repeat(digits))
  return fc.oneof(...outOfRange, notDecimal, tooLong, badPercentEncoding)
}

/** Cyrillic letters that look like Latin capitals, percent-encoded. */
const LOOK_ALIKES: Record<string, string> = {
  A: '%D0%90',
  B: '%D0%92',
  C: '%D0%A1',
  E: '%D0%95',
  O: '%D0%9E',
  T: '%D0%A2',
}

function refusedEnumValue(values: string[]): fc.Arbitrary<string> {
  const lookAlike = (value: string) => value.replace(/[ABCEOT]/, (letter) => LOOK_ALIKES[letter] ?? letter)
  const decodes = (encoded: string) => {
    try {
      return decodeURIComponent(encoded)
    } catch {
      return encoded
    }
  }
  const refused = fc.oneof(
    fc
      .constantFrom(...values)
      .chain((value) =>
        fc.constantFrom(
          value.toLowerCase(),
          value[0] + value.slice(1).toLowerCase(),
          `${value}%20`,
          `%20${value}`,
          `${value}%00`,
          `${value}%E2%80%8B`,
          lookAlike(value),
          `${value},${value}`,
        ),
      ),
    fc.constant(''),
    badPercentEncoding,
    oddString.map(percentEncode),
  )
  return refused.filter((encoded) => !values.includes(decodes(encoded)))
}

function validValue(schema: ParameterSchema): fc.Arbitrary<string> {
  if (schema.type === 'integer')
    return fc.integer({ min: schema.minimum ?? 1, max: Math.min(schema.maximum ?? 1000, 1_000_000) }).map(String)
  if (schema.enum) return fc.constantFrom(...schema.enum)
  return fc.constantFrom('a', 'ada', '')
}

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString'] as const

/**
 * Brackets hundreds to two thousand levels deep: a parser that expands `a[b][c]` recurses or allocates
 * per level. One such pair a query at most: node answers a request line over 16 KiB itself (see the
 * test file).
 */
const deepBrackets: fc.Arbitrary<[string, string]> = fc
  .tuple(
    fc.constantFrom('a', ...PROTO_KEYS),
    fc.constantFrom('[a]', '[__proto__]', '[]'),
    fc.integer({ min: 100, max: 2000 }),
  )
  .map(([root, level, depth]) => [`${root}${level.repeat(Math.min(depth, Math.floor(6000 / level.length)))}`, 'x'])

/** Parameters nobody documented: ignored by the API (CONTRACT §4), but parsed, so they must not hurt. */
export function noisePairs(documented: string[]): fc.Arbitrary<QueryPairs> {
  const name = fc
    .oneof(
      fc.constantFrom(...PROTO_KEYS, '__proto__[polluted]', 'constructor[prototype][polluted]', 'a[]', '%00'),
      oddString.map(percentEncode),
      badPercentEncoding,
    )
    .filter((candidate) => !documented.includes(candidate))
  const value = fc.oneof(oddString.map(percentEncode), badPercentEncoding, fc.constant(''))
  return fc
    .tuple(fc.array(fc.tuple(name, value), { maxLength: 4 }), fc.option(deepBrackets, { freq: 4 }))
    .map(([pairs, deep]) => (deep ? [...pairs, deep] : pairs))
}

/** `?a=1&b=2`, each pair as written (no second encoding). */
export function toQueryString(pairs: QueryPairs): string {
  return pairs.length === 0 ? '' : `?${pairs.map(([name, value]) => `${name}=${value}`).join('&')}`
}
