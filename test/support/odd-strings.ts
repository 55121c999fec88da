import fc from 'fast-check'

/**
 * Pieces of text that break naive string handling: NUL, lone surrogates, bidirectional controls,
 * emoji sequences, combining marks with and without a base, white space that `trim()` does and
 * does not remove, escapes of other languages, and look-alikes.
 */
export const ODD_PIECES = [
  '\u0000',
  '\uD800',
  '\uDFFF',
  '\uDBFF\uDBFF',
  '\u202E',
  '\u200F',
  'שלום',
  'مرحبا',
  '👩‍👩‍👧‍👦',
  '🙂',
  '🏳️‍🌈',
  'e\u0301',
  '\u0301\u0301\u0301',
  'Z̴̡̛͓̈́a̶͍͗l̷͙̓g̸̣̈o',
  '\u200B',
  '\uFEFF',
  '\u2028\u2029',
  '\u00A0',
  '\u3000',
  '\u0085',
  '\uFFFD',
  '\uFFFF',
  '\u{10FFFF}',
  '\r\n',
  '\t',
  '"',
  '\\',
  '\u001B[31m',
  '%',
  '%00',
  '${x}',
  '<script>',
  "' OR 1=1 --",
  '../',
  'İ',
  'ß',
  'ǅ',
  'ﬃ',
  'СLIENT',
] as const

/** Short text made of odd pieces and arbitrary code units (lone surrogates included). */
export const oddString: fc.Arbitrary<string> = fc
  .array(fc.oneof(fc.constantFrom(...ODD_PIECES), fc.string({ unit: 'binary', maxLength: 6 })), { maxLength: 10 })
  .map((pieces) => pieces.join(''))

/** Text of at least `min` code points (one piece repeated), for limits counted in code points. */
export function longOddString(min: number, extra = 60): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...ODD_PIECES, 'x', 'ab'), fc.integer({ min: 0, max: extra }))
    .map(([piece, more]) => piece.repeat(Math.ceil((min + more) / [...piece].length)))
}

/** Byte sequences that are not UTF-8: a stray byte, an overlong form, a surrogate, a truncation, > U+10FFFF. */
export const INVALID_UTF8 = [
  [0xff],
  [0xfe],
  [0x80],
  [0xc0, 0xaf],
  [0xc3],
  [0xed, 0xa0, 0x80],
  [0xed, 0xbf, 0xbf],
  [0xe2, 0x82],
  [0xf0, 0x9f, 0x98],
  [0xf5, 0x80, 0x80, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
].map((bytes) => Buffer.from(bytes))

export const invalidUtf8: fc.Arbitrary<Buffer> = fc.constantFrom(...INVALID_UTF8)

/** Invalid UTF-8 as a URL carries it, and escapes that are not escapes at all. */
export const badPercentEncoding: fc.Arbitrary<string> = fc.oneof(
  invalidUtf8.map(percentEncodeBytes),
  fc.constantFrom('%', '%G1', '%%', '%E', '%e2%82', '%2', '%u0041', '%C0%80'),
)

/**
 * The text's code points as WTF-8 (UTF-8 that keeps lone surrogates as their 3-byte forms, which are
 * invalid UTF-8): what a careless client sends for a string with a lone surrogate.
 */
export function toWtf8(text: string): Buffer {
  const bytes: number[] = []
  for (const character of text) {
    const codePoint = character.codePointAt(0) ?? 0
    if (codePoint >= 0xd800 && codePoint <= 0xdfff) {
      bytes.push(0xe0 | (codePoint >> 12), 0x80 | ((codePoint >> 6) & 0x3f), 0x80 | (codePoint & 0x3f))
    } else {
      bytes.push(...Buffer.from(character, 'utf8'))
    }
  }
  return Buffer.from(bytes)
}

/** Every byte but the unreserved ones (RFC 3986) as `%XX`. */
export function percentEncodeBytes(bytes: Buffer): string {
  let encoded = ''
  for (const byte of bytes) {
    const character = String.fromCharCode(byte)
    encoded += /[A-Za-z0-9\-._~]/.test(character) ? character : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return encoded
}

/** Percent-encodes a string's WTF-8 bytes, so lone surrogates arrive as invalid UTF-8. */
export function percentEncode(text: string): string {
  return percentEncodeBytes(toWtf8(text))
}

/**
 * Header-safe text: node refuses control characters and code points over U+00FF in a header value,
 * so these are latin-1 printable characters (no U+00A0, which `trim()` would remove).
 */
export const latin1Text: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0x21, max: 0x7e }),
      fc.integer({ min: 0x80, max: 0x9f }),
      fc.integer({ min: 0xa1, max: 0xff }),
    ),
    { minLength: 1, maxLength: 40 },
  )
  .map((codes) => String.fromCharCode(...codes))
