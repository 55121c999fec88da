import { describe, expect, test } from 'vitest'
import { isAppError } from '../../src/errors.js'
import { JsonBodyScanner, type JsonBodyLimits } from '../../src/server/json-body-scanner.js'
import { parseScannedJson } from '../../src/server/parse-scanned-json.js'

// PUT /__mock/state's body is scanned as it arrives and parsed an element at a time: whatever JSON.parse
// would refuse must still be refused, and what it accepts must come out the same.

const LIMITS: JsonBodyLimits = {
  bytes: 1024 * 1024,
  depth: 16,
  values: 10_000,
  elements: { count: 1_000, bytes: 1024 },
  said: 'the test limits',
}

async function parseInSlices(text: string, limits = LIMITS): Promise<unknown> {
  const scanner = new JsonBodyScanner(limits)
  // Cut anywhere: in strings, in escapes, between elements.
  const bytes = Buffer.from(text)
  for (let at = 0; at < bytes.length; at += 3) scanner.write(bytes.subarray(at, at + 3))
  return parseScannedJson(scanner.end(), async () => undefined)
}

async function refusal(text: string, limits = LIMITS): Promise<{ code: string; message: string }> {
  try {
    await parseInSlices(text, limits)
  } catch (error) {
    if (isAppError(error)) return { code: error.code, message: error.message }
    throw error
  }
  throw new Error(`accepted: ${text}`)
}

describe('a JSON body parsed an element at a time', () => {
  test.each([
    '{"organizations":[{"id":"o1","name":"A, [b]"}],"users":[]}',
    '{"users":[ 1 , "two" , {"three":[3]} , null ],"x":{"y":[1,2]}}',
    '{"a":"\\"[{,:}]\\\\","b":[["\\u005d"]]}',
    '{"k":[1],"k":[2,3]}',
    '{"__proto__":[1,2]}',
    ' { } ',
    '[1,2,3]',
    '"just a string"',
  ])('%s comes out as JSON.parse makes it', async (text) => {
    expect(await parseInSlices(text)).toEqual(JSON.parse(text))
  })

  test('a key "__proto__" is a member, never the prototype', async () => {
    const value = (await parseInSlices('{"__proto__":[{"polluted":true}]}')) as Record<string, unknown>
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.hasOwn(value, '__proto__')).toBe(true)
  })

  test.each([
    '{"users":[1,,2]}',
    '{"users":[1,]}',
    '{"users":[:]}',
    '{"users":[1 2]}',
    '{"users":[1] "x":2}',
    '{"users":[1]',
    '{"users":[1]} trailing',
    '{"users":[{"a":1]}',
    '{"users":[1}, "b": 2}',
    '{"users":[{"a":1}}, 2]}',
    '{"users":[1]]}',
  ])('%s is refused as not JSON, as JSON.parse refuses it', async (text) => {
    expect(() => JSON.parse(text)).toThrow()
    const { code, message } = await refusal(text)
    expect(code).toBe('VALIDATION_FAILED')
    expect(message).toContain('not valid JSON')
  })

  test('past a limit, the body is refused as it arrives: depth (400), values, elements, bytes (413)', async () => {
    expect((await refusal(`{"a":${'['.repeat(17)}${']'.repeat(17)}}`)).code).toBe('VALIDATION_FAILED')
    expect((await refusal(`{"a":[${'1,'.repeat(10_000)}1]}`)).code).toBe('PAYLOAD_TOO_LARGE')
    expect((await refusal(`{"a":[${'{},'.repeat(1_000)}{}]}`)).message).toContain('more than 1000 elements')
    expect((await refusal(`{"a":["${'x'.repeat(2_000)}"]}`)).message).toContain('over 1024 bytes')
    const small = { ...LIMITS, bytes: 100 }
    expect((await refusal(`{"a":"${'x'.repeat(200)}"}`, small)).code).toBe('PAYLOAD_TOO_LARGE')
  })

  test('a large body that is not an object is refused without being parsed', async () => {
    const { message } = await refusal(`[${'0,'.repeat(40_000)}0]`, { ...LIMITS, values: 100_000 })
    expect(message).toContain('must be a JSON object')
  })
})
