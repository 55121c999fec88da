/** What an `Authorization` header holds, as RFC 6750 reads it. */
export type BearerCredentials =
  { kind: 'missing' } | { kind: 'not-bearer' } | { kind: 'empty' } | { kind: 'token'; token: string }

/**
 * Reads `Authorization: Bearer <token>`: the scheme is case-insensitive (RFC 7235), and only spaces
 * and tabs surround a value (RFC 9110 §5.5). JavaScript's trim() would also strip U+00A0 and the like,
 * and `owner-token\u00A0` would authenticate. The users API and the mock's control routes both read it.
 */
export function readBearerToken(header: string | undefined): BearerCredentials {
  if (header === undefined) return { kind: 'missing' }
  const match = /^Bearer(?:[ ]+(.*))?$/i.exec(trimSpacesAndTabs(header))
  if (!match) return { kind: 'not-bearer' }
  const token = trimSpacesAndTabs(match[1] ?? '')
  if (token === '') return { kind: 'empty' }
  return { kind: 'token', token }
}

function trimSpacesAndTabs(value: string): string {
  return value.replace(/^[ \t]+|[ \t]+$/g, '')
}
