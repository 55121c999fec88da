/** Request headers whose values are credentials: shown as `<scheme> ***` unless the user asks to see them. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-api-key'])

/** What stands for a secret in reports. */
const MASK = '***'

/** Secrets shorter than this are not searched for in text: they would mask ordinary words. */
const MIN_SECRET_LENGTH = 4

/** Authorization schemes (RFC 9110 §11.1 and the registry's common ones): the word before the credentials. */
const SCHEMES = /^(bearer|basic|digest|token|negotiate|apikey)$/i

/**
 * A request header's value as reports show it: the credentials of `Authorization` (and the like) are
 * masked and the scheme stays, so a curl line still says what kind of credential was sent; a value with
 * no credentials in it (`Bearer` alone, nothing) stays as it is.
 *
 * @example
 * maskHeaderValue('Authorization', 'Bearer owner-token') // 'Bearer ***'
 * maskHeaderValue('Content-Type', 'application/json') // 'application/json'
 */
export function maskHeaderValue(name: string, value: string): string {
  const header = name.toLowerCase()
  if (!CREDENTIAL_HEADERS.has(header) || value.trim() === '') return value
  if (header === 'authorization' || header === 'proxy-authorization') {
    const [, scheme = '', gap = '', credentials = ''] = /^(\s*\S+)(\s*)([\s\S]*)$/.exec(value) ?? []
    if (SCHEMES.test(scheme.trim())) return credentials.trim() === '' ? value : `${scheme}${gap}${MASK}`
  }
  return MASK
}

/**
 * Text with every occurrence of the given secrets (the target's tokens, its webhook secret and the mock's
 * control token: contract/target/target-tokens.ts) replaced by `***`: a server that echoes one in an error message must not put
 * it in a CI log.
 *
 * @example
 * redactSecrets('token owner-token refused', ['owner-token']) // 'token *** refused'
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let redacted = text
  const longestFirst = [...new Set(secrets)].filter((secret) => secret.length >= MIN_SECRET_LENGTH)
  longestFirst.sort((a, b) => b.length - a.length)
  for (const secret of longestFirst) redacted = redacted.replaceAll(secret, MASK)
  return redacted
}
