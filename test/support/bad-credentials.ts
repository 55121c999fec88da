import fc from 'fast-check'
import { latin1Text } from './odd-strings.js'

/** What the request sends as `Authorization`: nothing, one header, or the header twice. */
export type Credentials = string | string[] | undefined

/**
 * Credentials CONTRACT §2 refuses (401): no header, another scheme, an empty Bearer token, a token
 * nobody has (other case, a suffix, names of `Object.prototype`, odd latin-1 text), the tokens of
 * suspended and invited users, and the header twice with a refused one first.
 */
export function refusedCredentials(activeTokens: string[], inactiveTokens: string[]): fc.Arbitrary<Credentials> {
  const isActive = (token: string) => activeTokens.includes(token.trim())
  const token = fc.constantFrom(...activeTokens)
  const unknownToken = fc
    .oneof(
      token.map((known) => known.toUpperCase()),
      fc.tuple(token, fc.constantFrom(' x', ',admin-token', '\u00ff', '=', '"')).map(([known, tail]) => known + tail),
      fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'null', 'undefined', '*'),
      latin1Text,
    )
    .filter((candidate) => !isActive(candidate))
  const single: fc.Arbitrary<string | undefined> = fc.oneof(
    fc.constant(undefined),
    fc.constantFrom('Bearer', 'Bearer ', 'Bearer \t ', 'bearer'),
    fc
      .tuple(fc.constantFrom('Basic ', 'Token ', 'Bearer:', 'Bearer=', 'Bearer_', 'Bearerx ', ''), token)
      .map(([scheme, known]) => scheme + known),
    fc.tuple(fc.constantFrom('Bearer ', 'bearer ', 'BEARER   '), unknownToken).map(([scheme, text]) => scheme + text),
    fc.constantFrom(...inactiveTokens).map((inactive) => `Bearer ${inactive}`),
  )
  const twice = fc
    .tuple(
      single,
      fc.oneof(
        single,
        token.map((known) => `Bearer ${known}`),
      ),
    )
    .map(([first, second]) => [first ?? 'Bearer', second ?? 'Bearer'])
  return fc.oneof({ weight: 5, arbitrary: single }, { weight: 1, arbitrary: twice })
}

/**
 * CONTRACT §2: `error="invalid_token"` exactly when a non-empty Bearer token was sent and refused.
 * With the header twice, the first one counts (node keeps the first Authorization line).
 */
export function sendsBearerToken(credentials: Credentials): boolean {
  const header = Array.isArray(credentials) ? credentials[0] : credentials
  return header !== undefined && /^Bearer +\S/i.test(header.trim())
}

/**
 * Headers a client may send along, none of which changes who the caller is or what the request does.
 * No `Prefer: delay=`, which would only slow the run down.
 */
export const noiseHeaders: fc.Arbitrary<Record<string, string>> = fc
  .dictionary(
    fc.constantFrom(
      'accept',
      'accept-language',
      'x-http-method-override',
      'x-forwarded-for',
      'x-forwarded-host',
      'origin',
      'cookie',
      'x-user-id',
      'x-organization-id',
      'prefer',
    ),
    fc.oneof(
      latin1Text,
      fc.constantFrom('DELETE', 'PATCH', '*/*', 'text/html', 'null', 'code=400', 'code=404, respond-async'),
      // At most three of 4,000 bytes: node answers headers over 16 KiB itself (see the test file).
      fc.integer({ min: 1000, max: 4000 }).map((length) => 'x'.repeat(length)),
    ),
    { maxKeys: 3 },
  )
  .filter((headers) => !/delay/i.test(headers['prefer'] ?? ''))
