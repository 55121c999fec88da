import fc from 'fast-check'
import { BODY_LIMIT } from '../../src/spec/contract-limits.js'
import { invalidUtf8, longOddString, oddString } from './odd-strings.js'

/** A body as bytes, and the Content-Type it is sent with (none when undefined). */
export interface SentBody {
  bytes: Buffer
  contentType: string | undefined
  /** Sent with `Transfer-Encoding: chunked`: the size is only known once read. */
  chunked?: boolean
}

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const

/** JSON text built as bytes, so that keys can repeat, `__proto__` can be a key and strings can hold any bytes. */
const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value))
const rawString = (bytes: Buffer): Buffer => Buffer.concat([Buffer.from('"'), bytes, Buffer.from('"')])
const object = (entries: Array<[string, Buffer]>): Buffer =>
  Buffer.concat([
    Buffer.from('{'),
    ...entries.flatMap(([key, value], index) => [Buffer.from(`${index ? ',' : ''}${JSON.stringify(key)}:`), value]),
    Buffer.from('}'),
  ])
const array = (items: Buffer[]): Buffer => Buffer.concat([Buffer.from('['), ...withCommas(items), Buffer.from(']')])

function withCommas(items: Buffer[]): Buffer[] {
  return items.flatMap((item, index) => (index ? [Buffer.from(','), item] : [item]))
}

/** Thousands of levels: arrays (2 bytes a level) or objects under a proto key, kept under the body limit. */
const deepNesting: fc.Arbitrary<Buffer> = fc.oneof(
  fc.integer({ min: 1000, max: 8000 }).map((depth) => Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth)}`)),
  fc.tuple(fc.constantFrom('a', ...PROTO_KEYS), fc.integer({ min: 500, max: 3000 })).map(([key, depth]) => {
    const level = `{"${key}":`
    const fitting = Math.min(depth, Math.floor((BODY_LIMIT - 1) / (level.length + 1)))
    return Buffer.from(`${level.repeat(fitting)}1${'}'.repeat(fitting)}`)
  }),
)

/** Values of every JSON type: scalars, odd or huge text, strings holding invalid UTF-8, arrays, deep nesting. */
const strangeValue: fc.Arbitrary<Buffer> = fc.oneof(
  fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null)).map(json),
  oddString.map(json),
  longOddString(101, 2000).map(json),
  fc
    .tuple(oddString, invalidUtf8, oddString)
    .map(([before, bytes, after]) => rawString(Buffer.concat([Buffer.from(before), bytes, Buffer.from(after)]))),
  fc.array(oddString.map(json), { maxLength: 3 }).map(array),
  deepNesting,
)

/**
 * Valid and invalid values of the three known keys: the body as a whole is judged by the document.
 * A Map, not an object literal: `VALUES_OF['constructor']` would be Object's constructor.
 */
const VALUES_OF = new Map<string, fc.Arbitrary<Buffer>>(
  Object.entries({
    name: fc.oneof(
      oddString.map(json),
      fc.constantFrom('', ' ', '\t\n', '\u3000\uFEFF', 'Ada').map(json),
      longOddString(101).map(json),
      strangeValue,
    ),
    role: fc.oneof(
      fc
        .constantFrom('CLIENT_VIEWER', 'CLIENT_ADMIN', 'client_admin', 'OWNER', '', 'CLIENT_OWNER ', 'СLIENT_ADMIN')
        .map(json),
      strangeValue,
    ),
    status: fc.oneof(
      fc.constantFrom('ACTIVE', 'SUSPENDED', 'INVITED', 'active', 'DELETED', '').map(json),
      strangeValue,
    ),
  }),
)

const key: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('name', 'role', 'status') },
  { weight: 2, arbitrary: fc.constantFrom(...PROTO_KEYS) },
  fc.constantFrom('id', 'email', 'organizationId', 'createdAt', 'Name', 'ROLE', 'name ', ''),
  oddString,
)

/** A nested object under a proto key: `{"__proto__": {"role": "CLIENT_OWNER"}}`, `{"constructor": {"prototype": …}}`. */
const protoNesting: fc.Arbitrary<[string, Buffer]> = fc
  .tuple(fc.constantFrom(...PROTO_KEYS), fc.constantFrom(...PROTO_KEYS), fc.constantFrom('role', 'name', 'isAdmin'))
  .map(([outer, inner, leaf]) => [outer, object([[inner, object([[leaf, json('CLIENT_OWNER')]])]])])

const entry: fc.Arbitrary<[string, Buffer]> = fc.oneof(
  {
    weight: 5,
    arbitrary: key.chain((name) =>
      (VALUES_OF.get(name) ?? strangeValue).map((value): [string, Buffer] => [name, value]),
    ),
  },
  { weight: 1, arbitrary: protoNesting },
)

/** JSON texts: mostly objects (duplicate keys allowed), also other top-level values and deep nesting. */
const jsonText: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 6, arbitrary: fc.array(entry, { maxLength: 5 }).map(object) },
  { weight: 1, arbitrary: strangeValue },
)

/** Not JSON at all, or JSON cut short, or JSON with what JSON does not have. */
const notJson: fc.Arbitrary<Buffer> = fc.oneof(
  fc
    .constantFrom(
      '',
      ' ',
      '{',
      '}',
      '{"name":}',
      "{'name':'x'}",
      '{"name":"x",}',
      '{"name":"x"} trailing',
      '{"name":"x"}{"name":"y"}',
      '// comment\n{"name":"x"}',
      'NaN',
      'undefined',
      '\uFEFF',
      '{"name":"\\ud800',
      '{"name":"\\u12"}',
      'name=x',
    )
    .map((text) => Buffer.from(text)),
  fc.string({ unit: 'binary', maxLength: 40 }).map((text) => Buffer.from(text)),
)

/** Invalid UTF-8 spliced in anywhere. */
const withInvalidUtf8: fc.Arbitrary<Buffer> = fc.tuple(jsonText, invalidUtf8, fc.nat()).map(([text, bytes, at]) => {
  const offset = text.length === 0 ? 0 : at % text.length
  return Buffer.concat([text.subarray(0, offset), bytes, text.subarray(offset)])
})

/** `{"name":"xxx…"}` of exactly `size` bytes: at the body limit (16 KiB) and one byte over it. */
function bodyOfSize(size: number): Buffer {
  const frame = '{"name":""}'
  return Buffer.from(`{"name":"${'x'.repeat(size - frame.length)}"}`)
}

const sizedBody: fc.Arbitrary<Buffer> = fc.oneof(
  fc.constantFrom(BODY_LIMIT + 1, BODY_LIMIT, BODY_LIMIT - 1).map(bodyOfSize),
  fc.integer({ min: BODY_LIMIT + 1, max: 4 * BODY_LIMIT }).map(bodyOfSize),
)

/** JSON under other names, forms, and nothing: each a 415 for a JSON body. */
const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      ' application/json ;charset=latin1',
    ),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      undefined,
      '',
      'text/plain',
      'application/merge-patch+json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
      'json',
      '*/*',
      'application/problem+json',
      'text/json',
      'application/json\u00ff',
    ),
  },
)

/** A body to send: JSON of every kind, not JSON, invalid UTF-8, bodies at and over the limit; with a content type. */
export const sentBody: fc.Arbitrary<SentBody> = fc.record({
  bytes: fc.oneof(
    { weight: 8, arbitrary: jsonText },
    { weight: 2, arbitrary: notJson },
    { weight: 2, arbitrary: withInvalidUtf8 },
    { weight: 2, arbitrary: sizedBody },
  ),
  contentType,
  chunked: fc.boolean(),
})

/**
 * What CONTRACT §3 and §4 answer a PATCH body from an active caller, before existence and
 * permission are looked at: 413 over 16 KiB, 415 unless sent as JSON, 400 unless it is UTF-8 JSON the
 * document's schema accepts (a leading BOM may be ignored, RFC 8259 §8.1), else undefined.
 */
export function refusalOfBody(body: SentBody, acceptsPatch: (value: unknown) => boolean): number | undefined {
  if (body.bytes.length > BODY_LIMIT) return 413
  const mediaType = body.contentType?.split(';')[0]?.trim().toLowerCase()
  if (mediaType !== 'application/json') return 415
  try {
    // CONTRACT §4: bytes that are not UTF-8 are a 400.
    const text = new TextDecoder('utf-8', { fatal: true }).decode(body.bytes).replace(/^\uFEFF/, '')
    return acceptsPatch(JSON.parse(text)) ? undefined : 400
  } catch {
    return 400
  }
}
