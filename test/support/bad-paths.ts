import fc from 'fast-check'
import { badPercentEncoding, oddString, percentEncode } from './odd-strings.js'

/** The longest path parameter the mock routes (build-app.ts, `maxParamLength`). */
export const MAX_PARAM_LENGTH = 4096

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567'.split('')

/**
 * Ids as they go in a URL (already encoded): well-formed ids nobody has, the given ids of other
 * organizations and of the caller's, odd text, invalid UTF-8, names of `Object.prototype`, `.`/`..`,
 * an encoded slash, `me` in other spellings, and ids at and over the routed length.
 */
export function badId(knownIds: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.array(fc.constantFrom(...BASE32), { minLength: 20, maxLength: 20 }).map((chars) => `usr_${chars.join('')}`),
    { weight: 2, arbitrary: fc.constantFrom(...knownIds) },
    oddString.filter((text) => text !== '').map(percentEncode),
    fc.tuple(fc.constantFrom('', 'usr_'), badPercentEncoding).map(([prefix, bytes]) => `${prefix}${bytes}`),
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'),
    fc.constantFrom('.', '..', '%2e%2e', '%2E', 'a%2Fb', '%2F', '%5C', '%00', '%20', '+', '*', '%2A'),
    fc.constantFrom('ME', 'Me', 'me%20', '%6De', 'me.json', 'me;x=1'),
    fc
      .integer({ min: MAX_PARAM_LENGTH - 2, max: MAX_PARAM_LENGTH + 2000 })
      .map((length) => `usr_${'q'.repeat(length - 4)}`),
  )
}

/**
 * The same route in spellings the API does not answer (CONTRACT §4: 404 for other paths): a
 * trailing or doubled slash, another case, an extra segment, a dot segment, an encoded slash.
 */
export function mangledPath(path: string): fc.Arbitrary<string> {
  const segments = path.split('/')
  return fc.oneof(
    fc.constantFrom(
      `${path}/`,
      path.replace('/api/', '/api//'),
      path.replace('/api/', '/API/'),
      path.replace('/users', '/Users'),
      `${path}/x`,
      `${path}/..`,
      `${path}/.`,
      path.replace('/users', '/users/.'),
      path.replace('/api/users', '/api%2Fusers'),
      path.replace('/api/', '/api/v1/'),
      `${segments.slice(0, -1).join('/')}/%2F${segments.at(-1) ?? ''}`,
    ),
    fc.tuple(oddString, badPercentEncoding).map(([text, bytes]) => `${path}/${percentEncode(text)}${bytes}`),
  )
}

/** The id of a URL path segment as the server decodes it, or undefined when it does not decode. */
export function decodedId(encoded: string): string | undefined {
  try {
    return decodeURIComponent(encoded)
  } catch {
    return undefined
  }
}
